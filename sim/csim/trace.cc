// Chrome/Perfetto JSON writer for csim traces (see trace.h).
#include "sim/csim/trace.h"

#include <cstdio>
#include <fstream>

#include "isa/error.h"

namespace tandem::sim::csim {
namespace {

const char* track_name(int t) {
  switch (t) {
    case kTrackFetch:
      return "fetch";
    case kTrackLoad:
      return "load";
    case kTrackCompute:
      return "compute";
    case kTrackStore:
      return "store";
    case kTrackMemory:
      return "memory";
  }
  return "?";
}

// Microseconds at `mhz` with fixed decimals (valid JSON numbers).
void put_us(std::string& out, Cycle c, double mhz) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(c) / mhz);
  out += buf;
}

void put_int(std::string& out, const char* key, std::int64_t v, bool& first) {
  if (v < 0) return;
  out += first ? "\"" : ",\"";
  first = false;
  out += key;
  out += "\":";
  out += std::to_string(v);
}

}  // namespace

void TraceRecorder::slice(Track t, const char* name, Cycle first, Cycle last, const SliceArgs& a) {
  slices_.push_back(Slice{t, name, first, last, a});
}

void TraceRecorder::flow(bool start, const char* queue, std::uint64_t id, Track t, Cycle at) {
  flows_.push_back(Flow{start, t, queue, id, at});
}

void TraceRecorder::counter(const char* name, Cycle at, std::int64_t value) {
  counters_.push_back(Counter{name, at, value});
}

void TraceRecorder::write(const std::string& path, const std::string& config_name) const {
  std::ofstream f(path, std::ios::binary);
  TANDEM_CHECK(f.good(), "csim: trace file '" << path << "' cannot be opened for writing");
  std::string out;
  out.reserve(1 << 20);
  const auto flush = [&] {
    f.write(out.data(), static_cast<std::streamsize>(out.size()));
    out.clear();
  };
  out += "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"simulator\":\"tandem csim\",\"config\":\"";
  for (char ch : config_name)
    if (ch != '"' && ch != '\\' && static_cast<unsigned char>(ch) >= 0x20) out += ch;
  out += "\",\"clock_mhz\":" + std::to_string(mhz_) + "},\"traceEvents\":[\n";
  out +=
      "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"csim\"}}";
  for (int t = kTrackFetch; t <= kTrackMemory; ++t) {
    out += ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(t) +
           ",\"args\":{\"name\":\"" + track_name(t) + "\"}}";
    out +=
        ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(t) +
        ",\"args\":{\"sort_index\":" + std::to_string(t) + "}}";
  }
  for (const Slice& s : slices_) {
    out += ",\n{\"name\":\"";
    out += s.name;
    out += "\",\"cat\":\"";
    out += s.track == kTrackMemory ? "burst" : "insn";
    out += "\",\"ph\":\"X\",\"pid\":1,\"tid\":" + std::to_string(s.track) + ",\"ts\":";
    put_us(out, s.first, mhz_);
    out += ",\"dur\":";
    put_us(out, s.last + 1 - s.first, mhz_);
    out += ",\"args\":{";
    bool first = true;
    put_int(out, "index", s.args.index, first);
    if (s.args.mem) {
      out += first ? "\"mem\":\"" : ",\"mem\":\"";
      first = false;
      out += s.args.mem;
      out += "\"";
    }
    put_int(out, "uops", s.args.uops, first);
    put_int(out, "bytes", s.args.bytes, first);
    put_int(out, "addr", s.args.addr, first);
    put_int(out, "insns", s.args.insns, first);
    put_int(out, "cycle", static_cast<std::int64_t>(s.first), first);
    put_int(out, "cycles", static_cast<std::int64_t>(s.last + 1 - s.first), first);
    out += "}}";
    if (out.size() > (1u << 20)) flush();
  }
  for (const Flow& fl : flows_) {
    out += ",\n{\"name\":\"";
    out += fl.queue;
    out += "\",\"cat\":\"token\",\"ph\":\"";
    out += fl.start ? "s" : "f\",\"bp\":\"e";
    out += "\",\"id\":" + std::to_string(fl.id) + ",\"pid\":1,\"tid\":" + std::to_string(fl.track) +
           ",\"ts\":";
    put_us(out, fl.at, mhz_);
    out += ",\"args\":{\"cycle\":" + std::to_string(fl.at) + "}}";
    if (out.size() > (1u << 20)) flush();
  }
  for (const Counter& c : counters_) {
    out += ",\n{\"name\":\"";
    out += c.name;
    out += "\",\"ph\":\"C\",\"pid\":1,\"ts\":";
    put_us(out, c.at, mhz_);
    out += ",\"args\":{\"count\":" + std::to_string(c.value) + "}}";
    if (out.size() > (1u << 20)) flush();
  }
  out += "\n]}\n";
  flush();
  f.close();
  TANDEM_CHECK(f.good(), "csim: writing trace file '" << path << "' failed");
}

}  // namespace tandem::sim::csim

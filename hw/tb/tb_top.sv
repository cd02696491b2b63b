// tb_top: SystemVerilog testbench that replays a Tandem test-vector bundle
// (docs/test-vectors.md) on the RTL top `tandem_top`.
//
// Usage (verilated binary): tandem_tb_<preset> +bundle=DIR [+timeout=CYCLES]
//                           [+check_cycles] [+vcd=FILE]
//
// 1. Reads DIR/regions.txt (the bundle's plain-text region list) and checks
//    that every RTL parameter it lists equals this build's tandem_pkg value.
// 2. Loads each "load" region from its .hex file ($readmemh, one line per
//    beat) into a sparse DRAM model at the region's byte address.
// 3. Resets the DUT, pulses ctrl_start with the instruction address and
//    count (the cycle after the start edge is cycle 0), and serves the AXI
//    master with the memory timing contract of hw/README.md:
//    ARREADY/AWREADY/WREADY and RREADY/BREADY are 1; a read burst whose AR
//    handshake is in cycle g returns its beats in cycles g+L .. g+L+beats-1;
//    a write burst's W beats come in cycles g .. g+beats-1 and its B in
//    cycle g+L+beats-1 (L = mem_latency_cycles of the bundle). Beats are
//    packed: beat i of a burst at byte address A carries bytes
//    [A+i*P, A+i*P+P); only the first ARBYTES/AWBYTES bytes are meaningful.
//    Requests that break the contract fail the run.
// 4. Waits for ctrl_done (fails on ctrl_error or after +timeout cycles),
//    compares every "check" region byte for byte with its expected .hex file
//    and prints "PASS" or the first "MISMATCH addr ... got ... expected ...",
//    plus the cycle count and its difference to the bundle's expected cycles.
//    +check_cycles makes a cycle difference a failure.
// The result (0 pass, 1 fail) is reported to the C++ main (tb_main.cc)
// through the DPI function tb_set_result, which becomes the exit code.
// Signals are driven at the falling edge and the DUT's requests sampled 1 ns
// later, mirroring the C++ harness hw/rtl_engine_impl.h.
// Built with --timescale 1ns/1ps (the clock period is 10 time units).
// The testbench mixes 64-bit addresses with 32-bit package parameters.
/* verilator lint_off WIDTH */
module tb_top;
  import tandem_pkg::*;

  import "DPI-C" function void tb_set_result(input int code);

  localparam int P = MEM_BYTES_PER_CYCLE;
  localparam int DW = MEM_DATA_W;

  // ---------------- DUT ----------------
  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic ctrl_start = 1'b0;
  logic [31:0] ctrl_insn_addr = '0, ctrl_insn_count = '0;
  logic ctrl_done, ctrl_error;
  logic [63:0] ctrl_cycles;
  logic [3:0] ctrl_err_code;
  logic [31:0] ctrl_err_aux, ctrl_err_insn, ctrl_err_value;
  logic [63:0] dbg_tokens;
  logic m_axi_arvalid, m_axi_rready, m_axi_awvalid, m_axi_wvalid, m_axi_wlast, m_axi_bready;
  logic [31:0] m_axi_araddr, m_axi_awaddr;
  logic [7:0] m_axi_arlen, m_axi_awlen;
  logic [1:0] m_axi_arid, m_axi_awid;
  logic [15:0] m_axi_arbytes, m_axi_awbytes;
  logic [DW-1:0] m_axi_wdata;
  logic [P-1:0] m_axi_wstrb;
  logic m_axi_rvalid = 1'b0, m_axi_rlast = 1'b0, m_axi_bvalid = 1'b0;
  logic [DW-1:0] m_axi_rdata = '0;

  tandem_top dut (
      .clk(clk),
      .rst_n(rst_n),
      .ctrl_start(ctrl_start),
      .ctrl_insn_addr(ctrl_insn_addr),
      .ctrl_insn_count(ctrl_insn_count),
      .ctrl_done(ctrl_done),
      .ctrl_cycles(ctrl_cycles),
      .ctrl_error(ctrl_error),
      .ctrl_err_code(ctrl_err_code),
      .ctrl_err_aux(ctrl_err_aux),
      .ctrl_err_insn(ctrl_err_insn),
      .ctrl_err_value(ctrl_err_value),
      .dbg_tokens(dbg_tokens),
      .dbg_state(),
      .dbg_qcounts(),
      .dbg_fetch_idx(),
      .dbg_load_idx(),
      .dbg_compute_idx(),
      .dbg_store_idx(),
      .dbg_running(),
      .dbg_bus_busy(),
      .dbg_fetch_stall(),
      .m_axi_arvalid(m_axi_arvalid),
      .m_axi_arready(1'b1),
      .m_axi_araddr(m_axi_araddr),
      .m_axi_arlen(m_axi_arlen),
      .m_axi_arid(m_axi_arid),
      .m_axi_arbytes(m_axi_arbytes),
      .m_axi_rvalid(m_axi_rvalid),
      .m_axi_rready(m_axi_rready),
      .m_axi_rdata(m_axi_rdata),
      .m_axi_rlast(m_axi_rlast),
      .m_axi_awvalid(m_axi_awvalid),
      .m_axi_awready(1'b1),
      .m_axi_awaddr(m_axi_awaddr),
      .m_axi_awlen(m_axi_awlen),
      .m_axi_awid(m_axi_awid),
      .m_axi_awbytes(m_axi_awbytes),
      .m_axi_wvalid(m_axi_wvalid),
      .m_axi_wready(1'b1),
      .m_axi_wdata(m_axi_wdata),
      .m_axi_wstrb(m_axi_wstrb),
      .m_axi_wlast(m_axi_wlast),
      .m_axi_bvalid(m_axi_bvalid),
      .m_axi_bready(m_axi_bready)
  );

  always #5 clk = ~clk;

  // ---------------- result ----------------
  // The first result counts; $finish ends the simulation at the end of the
  // current time step, so code after a failure may still run briefly.
  bit finished = 0;
  function automatic void finish_run(input bit pass);
    if (finished) return;
    finished = 1;
    tb_set_result(pass ? 0 : 1);
    $finish;
  endfunction
  function automatic void die(input string msg);
    if (finished) return;
    $display("tb: ERROR %s", msg);
    $display("FAIL");
    finish_run(0);
  endfunction

  // ---------------- sparse DRAM ----------------
  // Beat-indexed words; byte lane j of word w is the byte at address w*P+j.
  logic [DW-1:0] mem[longint unsigned];
  longint unsigned dram_bytes = 0;
  longint unsigned latency = 0;

  function automatic logic [7:0] mem_byte(input longint unsigned a);
    longint unsigned w = a / P;
    logic [DW-1:0] word;
    if (!mem.exists(w)) return 8'h00;
    word = mem[w];
    return word[(a%P)*8+:8];
  endfunction

  function automatic void mem_set_byte(input longint unsigned a, input logic [7:0] v);
    longint unsigned w = a / P;
    logic [DW-1:0] word = mem.exists(w) ? mem[w] : '0;
    word[(a%P)*8+:8] = v;
    mem[w] = word;
  endfunction

  // ---------------- bundle ----------------
  string dir;
  longint unsigned insn_addr = 0, insn_count = 0;
  longint expected_cycles = -1;
  string check_file[$];
  longint unsigned check_addr[$], check_size[$];

  function automatic bit pkg_param(input string name, output longint unsigned v);
    case (name)
      "INP_WIDTH": v = INP_WIDTH;
      "WGT_WIDTH": v = WGT_WIDTH;
      "ACC_WIDTH": v = ACC_WIDTH;
      "OUT_WIDTH": v = OUT_WIDTH;
      "BATCH": v = BATCH;
      "BLOCK_IN": v = BLOCK_IN;
      "BLOCK_OUT": v = BLOCK_OUT;
      "UOP_BUFF_BYTES": v = UOP_BUFF_BYTES;
      "INP_BUFF_BYTES": v = INP_BUFF_BYTES;
      "WGT_BUFF_BYTES": v = WGT_BUFF_BYTES;
      "ACC_BUFF_BYTES": v = ACC_BUFF_BYTES;
      "OUT_BUFF_BYTES": v = OUT_BUFF_BYTES;
      "CMD_QUEUE_DEPTH": v = CMD_QUEUE_DEPTH;
      "TOKEN_QUEUE_DEPTH": v = TOKEN_QUEUE_DEPTH;
      "MEM_BYTES_PER_CYCLE": v = MEM_BYTES_PER_CYCLE;
      "MEM_BURST_BYTES": v = MEM_BURST_BYTES;
      default: return 0;
    endcase
    return 1;
  endfunction

  // Reads a region's .hex file (one beat per line) into `words`, checking it
  // exists and has one line per beat of [addr, addr+size).
  logic [DW-1:0] words[longint unsigned];
  function automatic void read_hex(input string file, input longint unsigned addr,
                                   input longint unsigned size);
    string path = {dir, "/", file};
    longint unsigned lines = (addr + size + P - 1) / P - addr / P;
    int fd;
    fd = $fopen(path, "r");
    if (fd == 0) begin
      die($sformatf("cannot open bundle file %s", path));
      return;
    end
    $fclose(fd);
    words.delete();
    $readmemh(path, words);
    if (longint'(words.size()) != longint'(lines) || !words.exists(0) || !words.exists(lines - 1))
      die($sformatf("bundle file %s: %0d lines, expected %0d (one per %0d-byte beat)", path,
                    words.size(), lines, P));
  endfunction

  function automatic void load_region(input longint unsigned addr, input longint unsigned size,
                                      input string file);
    longint unsigned base = (addr / P) * P;
    if (addr + size > dram_bytes)
      die($sformatf("region %s [%0d, %0d) exceeds the DRAM of %0d bytes", file, addr, addr + size,
                    dram_bytes));
    if (finished) return;
    read_hex(file, addr, size);
    if (finished) return;
    foreach (words[i]) begin
      for (int j = 0; j < P; j++) begin
        longint unsigned a = base + i * P + longint'(j);
        if (a >= addr && a < addr + size) mem_set_byte(a, words[i][j*8+:8]);
      end
    end
    $display("tb: loaded %s: %0d bytes at 0x%0h", file, size, addr);
  endfunction

  function automatic void read_region_list();
    string path = {dir, "/regions.txt"};
    string kw, s, rest;
    longint unsigned a, n, v, want;
    longint sv;
    int fd, r;
    bit ended = 0;
    fd = $fopen(path, "r");
    if (fd == 0) begin
      die($sformatf("cannot open %s (is +bundle a test-vector bundle?)", path));
      return;
    end
    while (!ended && !finished) begin
      r = $fscanf(fd, "%s", kw);
      if (r != 1) die($sformatf("%s: ends before the 'end' line", path));
      if (kw.len() > 0 && kw[0] == "#") begin
        r = $fgets(rest, fd);
        continue;
      end
      case (kw)
        "format": begin
          r = $fscanf(fd, "%d", v);
          if (r != 1 || v != 1) die($sformatf("%s: format %0d is not supported (1)", path, v));
        end
        "config": begin
          r = $fscanf(fd, "%s", s);
          $display("tb: bundle %s, config %s", dir, s);
        end
        "param": begin
          r = $fscanf(fd, "%s %d", s, v);
          if (r != 2) die($sformatf("%s: malformed param line", path));
          if (!pkg_param(s, want)) die($sformatf("%s: unknown RTL parameter %s", path, s));
          if (v != want)
            die($sformatf("bundle needs %s = %0d but this testbench was built with %0d", s, v,
                          want));
        end
        "mem_latency_cycles": begin
          r = $fscanf(fd, "%d", latency);
          if (latency < 1) die("mem_latency_cycles 0 is not supported by the memory model");
        end
        "dram_bytes": r = $fscanf(fd, "%d", dram_bytes);
        "insn_addr": r = $fscanf(fd, "%d", insn_addr);
        "insn_count": r = $fscanf(fd, "%d", insn_count);
        "expected_cycles": r = $fscanf(fd, "%d", expected_cycles);
        "load": begin
          r = $fscanf(fd, "%d %d %s", a, n, s);
          if (r != 3) die($sformatf("%s: malformed load line", path));
          load_region(a, n, s);
        end
        "check": begin
          r = $fscanf(fd, "%d %d %s", a, n, s);
          if (r != 3) die($sformatf("%s: malformed check line", path));
          check_addr.push_back(a);
          check_size.push_back(n);
          check_file.push_back(s);
        end
        "end": ended = 1;
        default: die($sformatf("%s: unknown keyword '%s'", path, kw));
      endcase
      if (r < 1) die($sformatf("%s: value missing after '%s'", path, kw));
    end
    $fclose(fd);
    if (finished) return;
    if (insn_count == 0) die($sformatf("%s: no instructions", path));
    if (check_file.size() == 0) die($sformatf("%s: no check region", path));
    if (insn_addr + 16 * insn_count > 64'h1_0000_0000)
      die("instruction stream beyond the 32-bit address space");
  endfunction

  // ---------------- AXI memory model ----------------
  // Read bursts in flight (one entry per burst, oldest first).
  longint unsigned rd_first[$], rd_addr[$], rd_bytes[$], rd_beats[$];
  longint unsigned rd_next = 0;  // beats of the head burst already returned
  longint unsigned rd_bus_free = 0;  // first cycle after the last scheduled R beat
  longint unsigned b_cycle[$];  // B response cycles
  // The write burst being received.
  longint unsigned w_first = 0, w_addr = 0, w_bytes = 0, w_beats = 0, w_next = 0, w_left = 0;

  function automatic logic [DW-1:0] read_beat(input longint unsigned a, input longint unsigned n);
    logic [DW-1:0] d = '0;
    for (int j = 0; j < P; j++) if (longint'(j) < longint'(n)) d[j*8+:8] = mem_byte(a + j);
    return d;
  endfunction

  function automatic void check_burst(input string what, input longint unsigned addr,
                                      input longint unsigned len, input longint unsigned bytes,
                                      input longint unsigned t);
    longint unsigned beats = (bytes + P - 1) / P;
    if (bytes == 0 || len + 1 != beats)
      die($sformatf("memory contract: %s burst in cycle %0d at 0x%0h announces %0d beats for %0d bytes",
                    what, t, addr, len + 1, bytes));
    if (addr + bytes > dram_bytes)
      die($sformatf("memory contract: %s of %0d bytes at 0x%0h is outside the DRAM of %0d bytes",
                    what, bytes, addr, dram_bytes));
  endfunction

  // Drives R and B for cycle t.
  function automatic void drive_outputs(input longint unsigned t);
    m_axi_rvalid = 1'b0;
    m_axi_rlast = 1'b0;
    m_axi_bvalid = 1'b0;
    if (rd_first.size() > 0 && rd_first[0] + rd_next == t) begin
      longint unsigned off = rd_next * P;
      m_axi_rvalid = 1'b1;
      m_axi_rdata = read_beat(rd_addr[0] + off, rd_bytes[0] - off);
      rd_next++;
      m_axi_rlast = rd_next == rd_beats[0];
      if (m_axi_rlast) begin
        void'(rd_first.pop_front());
        void'(rd_addr.pop_front());
        void'(rd_bytes.pop_front());
        void'(rd_beats.pop_front());
        rd_next = 0;
      end
    end
    if (b_cycle.size() > 0 && b_cycle[0] == t) begin
      m_axi_bvalid = 1'b1;
      void'(b_cycle.pop_front());
    end
  endfunction

  // Takes the AR/AW/W requests the DUT drives in cycle t.
  function automatic void take_requests(input longint unsigned t);
    if (m_axi_arvalid) begin
      check_burst("read", m_axi_araddr, m_axi_arlen, m_axi_arbytes, t);
      if (finished) return;
      if (t + latency < rd_bus_free)
        die($sformatf("memory contract: read burst in cycle %0d would return data in cycle %0d while the previous burst returns data until cycle %0d",
                      t, t + latency, rd_bus_free - 1));
      rd_first.push_back(t + latency);
      rd_addr.push_back(m_axi_araddr);
      rd_bytes.push_back(m_axi_arbytes);
      rd_beats.push_back(m_axi_arlen + 1);
      rd_bus_free = t + latency + m_axi_arlen + 1;
    end
    if (m_axi_awvalid) begin
      if (w_left != 0)
        die($sformatf("memory contract: write burst in cycle %0d while %0d W beats are missing",
                      t, w_left));
      check_burst("write", m_axi_awaddr, m_axi_awlen, m_axi_awbytes, t);
      if (finished) return;
      w_first = t;
      w_addr = m_axi_awaddr;
      w_bytes = m_axi_awbytes;
      w_beats = m_axi_awlen + 1;
      w_next = 0;
      w_left = w_beats;
      b_cycle.push_back(t + latency + w_beats - 1);
    end
    if (m_axi_wvalid) begin
      longint unsigned off = w_next * P;
      if (w_left == 0 || w_first + w_next != t) begin
        die($sformatf("memory contract: W beat in cycle %0d outside a write burst's cycles", t));
        return;
      end
      for (int j = 0; j < P; j++) begin
        if (m_axi_wstrb[j]) begin
          if (off + j >= w_bytes)
            die($sformatf("memory contract: W beat %0d strobes byte %0d past the burst's %0d bytes",
                          w_next, j, w_bytes));
          mem_set_byte(w_addr + off + j, m_axi_wdata[j*8+:8]);
        end
      end
      w_next++;
      w_left--;
      if (m_axi_wlast != (w_left == 0))
        die($sformatf("memory contract: WLAST is %0d on beat %0d of a %0d-beat write burst",
                      m_axi_wlast, w_next - 1, w_beats));
    end
  endfunction

  // ---------------- output comparison ----------------
  function automatic bit compare_outputs();
    longint unsigned bad = 0;
    bit first = 1;
    for (int k = 0; k < check_file.size(); k++) begin
      longint unsigned addr = check_addr[k], size = check_size[k];
      longint unsigned base = (addr / P) * P;
      read_hex(check_file[k], addr, size);
      if (finished) return 0;
      foreach (words[i]) begin
        for (int j = 0; j < P; j++) begin
          longint unsigned a = base + i * P + longint'(j);
          logic [7:0] want = words[i][j*8+:8];
          logic [7:0] got;
          if (a < addr || a >= addr + size) continue;
          got = mem_byte(a);
          if (got !== want) begin
            if (first)
              $display("MISMATCH addr 0x%0h got 0x%02h expected 0x%02h (%s, byte offset %0d)", a,
                       got, want, check_file[k], a - addr);
            first = 0;
            bad++;
          end
        end
      end
    end
    if (bad != 0) $display("tb: %0d bytes differ", bad);
    return bad == 0;
  endfunction

  // ---------------- run ----------------
  // Returns right after a failure: die() ends the simulation only at the end
  // of the time step, and nothing may be printed after FAIL.
  task automatic run();
    longint unsigned t = 0, timeout;
    string vcd;
    bit pass;
    if (!$value$plusargs("bundle=%s", dir)) begin
      die("usage: +bundle=DIR [+timeout=CYCLES] [+check_cycles] [+vcd=FILE]");
      return;
    end
    if ($value$plusargs("vcd=%s", vcd)) begin
      $dumpfile(vcd);
      $dumpvars(0, tb_top);
    end
    read_region_list();
    if (finished) return;
    if (!$value$plusargs("timeout=%d", timeout))
      timeout = expected_cycles > 0 ? 4 * longint'(expected_cycles) + 100000 : 10000000;
    // Reset, then the start pulse; the cycle after the start edge is cycle 0.
    repeat (3) @(posedge clk);
    @(negedge clk);
    rst_n = 1'b1;
    ctrl_insn_addr = insn_addr[31:0];
    ctrl_insn_count = insn_count[31:0];
    ctrl_start = 1'b1;
    forever begin
      @(negedge clk);
      ctrl_start = 1'b0;
      drive_outputs(t);
      #1;
      take_requests(t);
      if (finished) return;
      @(posedge clk);
      #1;
      if (ctrl_done || ctrl_error) break;
      if (t >= timeout) begin
        die($sformatf("TIMEOUT: no ctrl_done after %0d cycles", t + 1));
        return;
      end
      t++;
    end
    if (ctrl_error) begin
      die($sformatf("ctrl_error after %0d cycles: code %0d aux 0x%0h insn %0d value 0x%0h", t + 1,
                    ctrl_err_code, ctrl_err_aux, ctrl_err_insn, ctrl_err_value));
      return;
    end
    if (rd_first.size() != 0 || b_cycle.size() != 0 || w_left != 0)
      $display("tb: warning: memory transfers still in flight at done");
    if (expected_cycles >= 0)
      $display("tb: cycles %0d (expected %0d, difference %0d)", ctrl_cycles, expected_cycles,
               longint'(ctrl_cycles) - expected_cycles);
    else $display("tb: cycles %0d (no expected cycles in the bundle)", ctrl_cycles);
    pass = compare_outputs();
    if (finished) return;
    if (pass && expected_cycles >= 0 && longint'(ctrl_cycles) != expected_cycles &&
        $test$plusargs("check_cycles")) begin
      $display("tb: cycle count differs from the bundle's expected cycles (+check_cycles)");
      pass = 0;
    end
    if (pass) $display("PASS");
    else $display("FAIL");
    finish_run(pass);
  endtask

  initial run();
endmodule

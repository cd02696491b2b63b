# CTest script: the test-vector command-line flow on a fresh GEMM bundle.
#   tandem vectors gemm ... --out DIR;  tandem replay DIR --target T for every
#   built target (fsim always; csim/rtl when `tandem replay` accepts them);
#   the SV testbench TB +bundle=DIR when TB is set; then a corrupted copy
#   must be rejected by tandem replay with the file named; conv2d and dense
#   bundles from the compiler replay on fsim; bad workloads fail with a message.
# Variables: TANDEM (the tandem binary), DIR (scratch directory), TB (optional).
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${DIR})
run(${TANDEM} vectors gemm --m 16 --n 16 --k 64 --vthreads 2 --seed 9 --out ${DIR}/g)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tandem vectors failed (${rc})")
endif()

foreach(target fsim csim rtl)
  run(${TANDEM} replay ${DIR}/g --target ${target})
  message("${out}")
  if(out MATCHES "not (built|available)|unknown target")
    message("skipping target ${target}: not in this build")
  elseif(NOT rc EQUAL 0 OR NOT out MATCHES "replay: PASS")
    message(FATAL_ERROR "tandem replay --target ${target} failed (${rc})")
  endif()
endforeach()

if(TB)
  run(${TB} +bundle=${DIR}/g)
  message("${out}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\nPASS\n")
    message(FATAL_ERROR "SV testbench failed (${rc})")
  endif()
endif()

# A flipped byte in the expected image: checksum error naming the file.
file(COPY ${DIR}/g/ DESTINATION ${DIR}/bad)
file(READ ${DIR}/bad/expected_C.bin hex HEX)
string(SUBSTRING "${hex}" 0 2 first)
if(first STREQUAL "00")
  set(flip "01")
else()
  set(flip "00")
endif()
string(SUBSTRING "${hex}" 2 -1 rest)
# Rewrite the file with its first byte changed (via a hex -> binary round trip).
string(REGEX REPLACE "(..)" "\\\\x\\1" esc "${flip}${rest}")
execute_process(COMMAND printf "${esc}" OUTPUT_FILE ${DIR}/bad/expected_C.bin)
run(${TANDEM} replay ${DIR}/bad --target fsim)
message("${out}")
if(rc EQUAL 0 OR NOT out MATCHES "expected_C.bin: SHA-256")
  message(FATAL_ERROR "a corrupted bundle was not rejected")
endif()

# conv2d from the compiler, replayed on fsim.
run(${TANDEM} vectors conv2d --ci 8 --h 6 --w 6 --co 16 --bias --relu --shift 6 --no-cycles
    --out ${DIR}/c)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tandem vectors conv2d failed (${rc})")
endif()
run(${TANDEM} replay ${DIR}/c --target fsim)
message("${out}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "replay: PASS")
  message(FATAL_ERROR "tandem replay of the conv2d bundle failed (${rc})")
endif()

# dense from the compiler, replayed on fsim.
run(${TANDEM} vectors dense --batch 2 --ci 40 --co 24 --bias --shift 5 --no-cycles --out ${DIR}/d)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tandem vectors dense failed (${rc})")
endif()
run(${TANDEM} replay ${DIR}/d --target fsim)
message("${out}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "replay: PASS")
  message(FATAL_ERROR "tandem replay of the dense bundle failed (${rc})")
endif()

# Errors: an impossible conv2d shape and an unknown workload fail with a message.
run(${TANDEM} vectors conv2d --ci 8 --h 2 --w 2 --co 8 --kh 5 --kw 5 --pad 0 --out ${DIR}/x)
message("${out}")
if(rc EQUAL 0 OR NOT out MATCHES "error:")
  message(FATAL_ERROR "an impossible conv2d shape was accepted")
endif()
run(${TANDEM} vectors matmul --out ${DIR}/x)
message("${out}")
if(rc EQUAL 0 OR NOT out MATCHES "unknown workload 'matmul'")
  message(FATAL_ERROR "an unknown workload was accepted")
endif()

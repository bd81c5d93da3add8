# run_to_file.cmake: runs BIN with ARGS (one string, split like a shell
# would) and writes its standard output to OUT, replacing OUT only when BIN
# succeeds. The build uses it for the man page and the completions:
#   cmake -DBIN=clustersim "-DARGS=help --man" -DOUT=clustersim.1 -P run_to_file.cmake
separate_arguments(args UNIX_COMMAND "${ARGS}")
execute_process(COMMAND "${BIN}" ${args} OUTPUT_FILE "${OUT}.tmp" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE "${OUT}.tmp")
  message(FATAL_ERROR "${BIN} ${ARGS} failed (${rc}); ${OUT} not written")
endif()
file(RENAME "${OUT}.tmp" "${OUT}")

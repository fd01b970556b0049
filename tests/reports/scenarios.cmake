# Read by ctest (TEST_INCLUDE_FILES) with EH_TOOL set: one test per (case, model) the tool lists.
if(NOT EXISTS "${EH_TOOL}")
  # Registered anyway, so that ctest says what is missing instead of running nothing.
  add_test(scenario-matrix "${EH_TOOL}" list --matrix)
  return()
endif()
execute_process(COMMAND "${EH_TOOL}" list --matrix
  OUTPUT_VARIABLE eh_matrix RESULT_VARIABLE eh_rc ERROR_QUIET)
if(NOT eh_rc EQUAL 0)
  add_test(scenario-matrix "${EH_TOOL}" list --matrix)
  return()
endif()

# Lines are "CASE VARIANT MODEL", in matrix order; a test covers every variant of its (case, model).
string(REGEX MATCHALL "[^\n]+" eh_lines "${eh_matrix}")
set(eh_pairs "")
foreach(eh_line IN LISTS eh_lines)
  string(REPLACE " " ";" eh_fields "${eh_line}")
  list(GET eh_fields 0 eh_case)
  list(GET eh_fields 2 eh_model)
  list(APPEND eh_pairs "${eh_case}/${eh_model}")
endforeach()
list(REMOVE_DUPLICATES eh_pairs)
foreach(eh_pair IN LISTS eh_pairs)
  string(REPLACE "/" ";" eh_fields "${eh_pair}")
  list(GET eh_fields 0 eh_case)
  list(GET eh_fields 1 eh_model)
  add_test("${eh_pair}" "${EH_TOOL}" run --case "${eh_case}" --model "${eh_model}")
  # A hang backstop (tests/CMakeLists.txt's EH_TIMEOUTS: the scenario label's), not a time limit.
  set_tests_properties("${eh_pair}" PROPERTIES LABELS "scenario;${eh_case}" TIMEOUT 900)
endforeach()

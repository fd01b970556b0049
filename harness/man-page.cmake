# Writes the man page errata-harness(1) with help2man from the tool's own help: the global --help
# becomes the page, and each command it lists (the command table of harness/cli/main.c) has its own
# --help as one section of it.
#   cmake -DTOOL=errata-harness -DHELP2MAN=help2man -DOUT=errata-harness.1 -P harness/man-page.cmake
foreach(var TOOL HELP2MAN OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man-page.cmake: -D${var}=... is required")
  endif()
endforeach()

execute_process(COMMAND ${TOOL} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "man-page.cmake: ${TOOL} --help exited ${rc}")
endif()
# The "commands:" paragraph: "  NAME      summary" lines; a summary's wrapped lines start with more spaces.
string(REGEX REPLACE ".*\ncommands:\n" "" help "${help}")
string(REGEX REPLACE "\n\n.*" "" help "${help}")
string(REGEX MATCHALL "(^|\n)  [a-z]+ " commands "${help}")
list(TRANSFORM commands STRIP)
if(NOT commands)
  message(FATAL_ERROR "man-page.cmake: ${TOOL} --help lists no commands")
endif()

set(include ${OUT}.sections)
file(WRITE ${include} "")
foreach(cmd ${commands})
  execute_process(COMMAND ${TOOL} ${cmd} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "man-page.cmake: ${TOOL} ${cmd} --help exited ${rc}")
  endif()
  # roff: a backslash is \e, a line starting with . or ' would be a request; .nf keeps the layout.
  string(REPLACE "\\" "\\e" help "${help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
  string(TOUPPER ${cmd} name)
  file(APPEND ${include} "[${name} COMMAND]\n.nf\n${help}.fi\n\n")
endforeach()

execute_process(COMMAND ${HELP2MAN} --no-info --section=1
                        "--name=prove Linux arm64 errata workarounds on emulated CPU models"
                        --include=${include} --output=${OUT} ${TOOL}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "man-page.cmake: help2man exited ${rc}")
endif()

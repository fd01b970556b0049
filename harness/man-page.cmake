# Writes the man page errata-harness(1) with help2man from the tool's own help: the global --help
# becomes the page, and each command's own --help one section of it.
#   cmake -DTOOL=errata-harness -DHELP2MAN=help2man -DOUT=errata-harness.1 -P harness/man-page.cmake
foreach(var TOOL HELP2MAN OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man-page.cmake: -D${var}=... is required")
  endif()
endforeach()

set(include ${OUT}.sections)
file(WRITE ${include} "")
foreach(cmd list models run replay audit exec)
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

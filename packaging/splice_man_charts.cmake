# cmake -DPAGE=opscope.1 -DCHARTS=charts.man -DOUT=build/opscope.1 -P splice_man_charts.cmake
# Replaces the page's '.\" @CHARTS@' line with the CHART entries `opscope --man-charts`
# printed from the analysis catalog.
cmake_minimum_required(VERSION 3.25)
file(READ "${PAGE}" page)
file(READ "${CHARTS}" charts)
string(FIND "${page}" "@CHARTS@" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${PAGE} has no @CHARTS@ line")
endif()
# The marker line: from the start of its line to its end.
string(SUBSTRING "${page}" 0 ${at} before)
string(FIND "${before}" "\n" lineStart REVERSE)
math(EXPR lineStart "${lineStart} + 1")
string(SUBSTRING "${page}" 0 ${lineStart} head)
string(SUBSTRING "${page}" ${at} -1 rest)
string(FIND "${rest}" "\n" lineEnd)
math(EXPR lineEnd "${lineEnd} + 1")
string(SUBSTRING "${rest}" ${lineEnd} -1 tail)
file(WRITE "${OUT}" "${head}${charts}${tail}")

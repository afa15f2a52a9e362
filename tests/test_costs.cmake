# Included by ctest after the discovered GoogleTest cases (TEST_INCLUDE_FILES), before
# the tests tests/CMakeLists.txt adds itself (those set their COST there): ctest starts
# the tests with the highest COST first. A fresh build has no timing history
# (Testing/Temporary/CTestCostData.txt), so without these the longest tests may start
# last and run alone at the end: in one fresh-clone run the sanitizer build's prediction
# check (268 s) began last and ran two minutes alone on one of two cores. The values are
# seconds from that run and the release one (the slower of the two builds); only their
# order matters. Every name must be a test of both builds (a skipped one is still a
# test): Tests.EveryCostedNameIsATest fails on a misspelled or removed one, which
# set_tests_properties here would pass over in silence.
set(opscope_test_costs
  CliRobustness.TheWindowStreamsAndRankTablesStayUnder300MiB 230
  ParallelGzipLoad.ACutStreamTrailingBytesAndTwoMembersAgree 140
  CriticalPath.GpuEdgesBesideTheCallStacksGiveTheOneThreadPath 90
  CliRobustness.MillionsOfElementsStayUnder300MiB 66
  ParallelGzipLoad.RealGzipTracesOfOtherToolsGiveTheModelOfOnePass 45
  CliRobustness.GzipBombsStayUnder300MiB 38
  Advice.NoShareExceedsItsWindowOnAnyRealTrace 38
  TraceWriter.EveryLaunchLinkIsOneArrow 36)
while(opscope_test_costs)
  list(POP_FRONT opscope_test_costs name cost)
  set_tests_properties(${name} PROPERTIES COST ${cost})
endwhile()

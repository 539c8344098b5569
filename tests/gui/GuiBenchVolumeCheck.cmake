# gui.benchVolume: rgx_gui_bench --volume on a 48^3 phantom (PoCL, a few
# seconds) exits 0 and prints every line of its report: the three cases of
# clicks with their breakdown lines (DESIGN.md's contract), the slice steps
# of each view, the memory. The figures themselves are not checked.
#   cmake -DBENCH=path/to/rgx_gui_bench -P GuiBenchVolumeCheck.cmake
execute_process(
  COMMAND ${BENCH} --volume 48 --device pocl --volume-repeats 3 --volume-steps 10
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status TIMEOUT 280)
message("${out}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "rgx_gui_bench --volume 48 ended with ${status}:\n${err}")
endif()
set(number "[0-9]+(\\.[0-9]+)?")
set(breakdown "edit breakdown \\(median ms\\): engine ${number}, result ${number}, overlay ${number}, paint ${number}, outside the engine -?${number}\n")
set(voxels "${number}( [kM])? voxels")
set(expected
  "\nvolume 48\\^3 resident before the first click: ${number} ms"
  "\nvolume 48\\^3 first click \\(background, ${voxels}; the volume resident before it\\)\n${breakdown}"
  "\nvolume 48\\^3 click \\(background, ${voxels}\\)\n${breakdown}"
  "\nvolume 48\\^3 click \\(ball, ${voxels}\\)\n${breakdown}"
  "  also \\(median ms\\): click to request ${number} [^\n]* click to the new region on all three views ${number} \\(${number}\\.\\.${number}\\)"
  "\nvolume 48\\^3 memory: the volume ${number} MiB \\(2 bytes a voxel\\); peak resident ${number} MiB \\(VmHWM after the clicks\\)"
  "\nvolume 48\\^3 scroll axial \\([0-9]+x[0-9]+ view\\): Page Down to paint ${number} ms median \\(${number}\\.\\.${number}\\) = [0-9]+ frames per second"
  "\nvolume 48\\^3 scroll coronal \\([0-9]+x[0-9]+ view\\): Page Down to paint ${number} ms median"
  "\nvolume 48\\^3 scroll sagittal \\([0-9]+x[0-9]+ view\\): Page Down to paint ${number} ms median")
foreach(pattern IN LISTS expected)
  if(NOT out MATCHES "${pattern}")
    message(FATAL_ERROR "rgx_gui_bench --volume 48 printed no line matching: ${pattern}")
  endif()
endforeach()
# The background's region is most of the volume, the ball's a small part of it.
if(NOT out MATCHES "\nvolume 48\\^3 click \\(background, [0-9]+ k voxels\\)" OR NOT out MATCHES "\nvolume 48\\^3 click \\(ball, [0-9]+ voxels\\)")
  message(FATAL_ERROR "the regions are not the background (thousands of voxels) and a ball (fewer)")
endif()

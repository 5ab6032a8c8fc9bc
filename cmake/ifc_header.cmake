# The one mlx5_ifc.h of a build tree (tools/ifcgen/README.md): the core's
# PRM layouts are generated from it and core-cpp/include/cxprm/prm/layouts.sel
# (core-cpp/CMakeLists.txt), the tools' ifc tables (tools/ifcgen) and
# ifc_crosscheck (core-cpp/tests/ifc) read it too.
#
# CXPRM_IFC_HEADER when set, else the newest of the host's kernel headers,
# /usr/src/linux-headers-*-common/include/linux/mlx5/mlx5_ifc.h in version
# order (make deps installs them).  The rule is tools/ifcgen/core_layouts.py
# --find-header's, which the module build (tools/ifcgen/gen-core-layouts.sh)
# asks too, so userspace and the module get the same layouts.  Not the
# kernel build chroots' headers: those come and go with their cache keys,
# and a build tree must not depend on a file that may vanish.
#
# The header must resolve the selection (Linux 6.1 or newer): configuring
# fails otherwise, saying what to install.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(CXPRM_IFC_HEADER "" CACHE FILEPATH
  "mlx5_ifc.h to generate the core's layouts and the ifc tables from (default: the newest host header)")
set(CXPRM_CORE_LAYOUTS_PY ${PROJECT_SOURCE_DIR}/tools/ifcgen/core_layouts.py)
set(CXPRM_LAYOUTS_SEL ${PROJECT_SOURCE_DIR}/core-cpp/include/cxprm/prm/layouts.sel)

if(CXPRM_IFC_HEADER)
  set(CXPRM_IFC_HEADER_PATH "${CXPRM_IFC_HEADER}")
else()
  execute_process(
    COMMAND ${Python3_EXECUTABLE} ${CXPRM_CORE_LAYOUTS_PY} --find-header
    OUTPUT_VARIABLE CXPRM_IFC_HEADER_PATH ERROR_VARIABLE ifc_err
    RESULT_VARIABLE ifc_rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT ifc_rc EQUAL 0)
    message(FATAL_ERROR "${ifc_err}")
  endif()
endif()
execute_process(
  COMMAND ${Python3_EXECUTABLE} ${CXPRM_CORE_LAYOUTS_PY} --check
          --select ${CXPRM_LAYOUTS_SEL} --header ${CXPRM_IFC_HEADER_PATH}
  ERROR_VARIABLE ifc_err RESULT_VARIABLE ifc_rc)
if(NOT ifc_rc EQUAL 0)
  message(FATAL_ERROR "mlx5_ifc.h ${CXPRM_IFC_HEADER_PATH} does not resolve the core's "
    "layouts:\n${ifc_err}")
endif()
message(STATUS "mlx5_ifc.h: ${CXPRM_IFC_HEADER_PATH}")
get_filename_component(ifc_header_dir ${CXPRM_IFC_HEADER_PATH} DIRECTORY)
# What a change of the header means for the generators' dependencies.
set(CXPRM_IFC_HEADER_DEPS ${CXPRM_IFC_HEADER_PATH})
if(EXISTS ${ifc_header_dir}/mlx5_ifc_fpga.h)
  list(APPEND CXPRM_IFC_HEADER_DEPS ${ifc_header_dir}/mlx5_ifc_fpga.h)
endif()

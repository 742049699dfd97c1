#!/bin/sh
# test_spank_exports.sh PLUGIN: the Slurm plugin loaded into srun and
# slurmstepd exports exactly the SPANK symbols (nm -D), and carries none of
# libomp_ext's OpenMP entry points (GOMP_*, __kmpc_*, ompt_start_tool, the
# in-code API) nor its constructors and destructors (the environment, timing
# and per-region layers): its .init_array and .fini_array hold only the
# compiler's own entry each.  77 when the build has no plugin.
set -u
plugin=$1
[ -f "$plugin" ] || { echo "no Slurm plugin in this build (a sanitizer build, or no slurm/spank.h)"; exit 77; }
fails=0
want="plugin_name plugin_type plugin_version slurm_spank_exit slurm_spank_init slurm_spank_local_user_init slurm_spank_task_init slurm_spank_user_init spank_plugin_version"
got=$(nm -D --defined-only "$plugin" | awk '{print $3}' | sort | tr '\n' ' ' | sed 's/ $//')
if [ "$got" = "$want" ]; then echo "ok - nm -D: only the SPANK symbols"; else
  echo "not ok - nm -D: want '$want', got '$got'"; fails=1; fi
bad=$(nm "$plugin" | awk '{print $NF}' |
  grep -E '^(GOMP_|__kmpc_|ompt_start_tool$|omp_set_ht_|omp_get_ht_|omp_ht_rebind$|omp_ext_env_init$|region_env_init$|timing_ctor$|timing_write$|plan_unmatched$)' |
  tr '\n' ' ')
if [ -z "$bad" ]; then echo "ok - no OpenMP entry point or libomp_ext constructor inside"; else
  echo "not ok - libomp_ext's run-time symbols inside the plugin: $bad"; fails=1; fi
for s in .init_array .fini_array; do
  size=$(readelf -SW "$plugin" | awk -v s="$s" '$2 == s { print $6 }')
  if [ "$size" = "000008" ]; then echo "ok - $s holds one entry (the compiler's)"; else
    echo "not ok - $s size '$size': a constructor or destructor came in"; fails=1; fi
done
exit $fails

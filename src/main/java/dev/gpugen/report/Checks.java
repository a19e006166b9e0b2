package dev.gpugen.report;

import java.util.Comparator;
import java.util.List;

/** The checks play 05 reports, in the order it runs them; the page's columns follow it. */
public final class Checks {
  public static final String ALL_REDUCE = "nccl_all_reduce";
  public static final String OUTLIER = "outlier";

  /** Play 05's order (roles/validation/defaults validation_check_names, lustre_mount beside). */
  public static final List<String> ORDER =
      List.of(
          "driver_version",
          "gpu_count",
          "persistence_mode",
          "cuda_toolkit",
          "container_toolkit",
          "efa_interfaces",
          "gdrdrv",
          "lustre_mount",
          "gpu_burn",
          "nccl_all_reduce",
          "nccl_all_reduce_multi_node",
          "dcgm_diag",
          OUTLIER);

  /** Known checks in play 05's order, then any others by name. */
  public static final Comparator<String> BY_ORDER =
      Comparator.<String>comparingInt(
              n -> ORDER.indexOf(n) < 0 ? Integer.MAX_VALUE : ORDER.indexOf(n))
          .thenComparing(Comparator.naturalOrder());

  private Checks() {}
}

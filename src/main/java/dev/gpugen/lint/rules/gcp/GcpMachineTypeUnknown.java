package dev.gpugen.lint.rules.gcp;

import dev.gpugen.compat.GcpMachineType;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import java.util.stream.Collectors;

/** On GCP the accelerator is derived from the machine type; an unknown type has none. */
public final class GcpMachineTypeUnknown extends PoolRule {
  public GcpMachineTypeUnknown() {
    super(
        "gcp-machine-type-unknown",
        Severity.ERROR,
        "the pool's GCP machine type has no known GPU accelerator",
        "On GCP a pool's instanceType is a machine type, and gpugen derives guest_accelerator"
            + " (type and count) from it, so machine type and accelerator cannot disagree: A2"
            + " (nvidia-tesla-a100, nvidia-a100-80gb), A3 (nvidia-h100-80gb, nvidia-h100-mega-80gb,"
            + " nvidia-h200-141gb), A4 (nvidia-b200), G2 (nvidia-l4). A name that is not such a"
            + " machine type - e.g. n1-standard-8-a100, which does not exist - has no accelerator,"
            + " and the node pool would have no GPU."
            + " Source: https://cloud.google.com/compute/docs/gpus");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.spec().cloud().provider() != Provider.GCP || p.hardware().gcp().isPresent()) {
      return;
    }
    String known =
        p.table().gcpMachines().stream()
            .map(GcpMachineType::name)
            .filter(n -> n.endsWith("-8g") || n.equals("g2-standard-96"))
            .collect(Collectors.joining(", "));
    findings.report(
        p.path("instanceType"),
        p.pool().instanceType()
            + " is not a GCP GPU machine type gpugen knows (pool "
            + p.pool().name()
            + ")",
        "use a machine type such as " + known);
  }
}

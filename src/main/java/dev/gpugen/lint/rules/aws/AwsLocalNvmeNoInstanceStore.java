package dev.gpugen.lint.rules.aws;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;

/** localNvme builds an array over instance-store volumes a type must have. */
public final class AwsLocalNvmeNoInstanceStore extends PoolRule {
  public AwsLocalNvmeNoInstanceStore() {
    super(
        "aws-local-nvme-no-instance-store",
        Severity.ERROR,
        "localNvme on an instance type without instance-store volumes",
        "pools[].localNvme makes one RAID 0 array of the NVMe instance-store volumes EC2 attaches"
            + " to the instance type (p4d: 8 x 1000 GB, p5 and p6: 8 x 3800 GB). Types with EBS"
            + " storage only (the P3 and G5g sizes, for example) have none: the node would find no"
            + " device, and with containerd: true containerd would have no root. Remove localNvme,"
            + " or use a type with instance store. Source: the instance store column of"
            + " https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.spec().cloud().provider() != Provider.AWS
        || p.pool().localNvme().filter(n -> n.raid0()).isEmpty()
        || p.hardware().aws().isEmpty()
        || p.hardware().instanceStore().present()) {
      return;
    }
    findings.report(
        p.path("localNvme"),
        p.describe() + " has no instance-store volumes (EBS only): localNvme has nothing to use",
        "remove localNvme, or use an instance type with NVMe instance store");
  }
}

package dev.gpugen.lint.rules.efa;

import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;

/** Some EFA instance types need a minimum software stack. */
public final class EfaInstanceNeedsNewerCuda extends PoolRule {
  public EfaInstanceNeedsNewerCuda() {
    super(
        "efa-instance-needs-newer-cuda",
        Severity.ERROR,
        "the CUDA toolkit is older than the instance type's EFA stack requires",
        "aws-ofi-nccl documents a minimum stack per instance type for EFA: p5.48xlarge needs CUDA"
            + " 12.0 or newer (with NCCL 2.18.5, aws-ofi-nccl 1.7.3 and EFA installer 1.29.0,"
            + " which gpugen's play installs). An older CUDA cannot use the platform's EFA path."
            + " This rule checks the CUDA part; gpugen installs the other components."
            + " Source: https://github.com/aws/aws-ofi-nccl/blob/master/doc/efa-env-var.md");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.hardware().aws().isEmpty()) {
      return;
    }
    AwsInstanceType type = p.hardware().aws().get();
    Version cuda = p.cuda();
    type.minStack()
        .map(AwsInstanceType.MinStack::cuda)
        .filter(cuda::isBefore)
        .ifPresent(
            min ->
                findings.report(
                    findings.software(p.index(), "cuda"),
                    p.describe() + " needs CUDA " + min + " or newer for EFA, not " + cuda,
                    "use CUDA " + min + " or newer"));
  }
}

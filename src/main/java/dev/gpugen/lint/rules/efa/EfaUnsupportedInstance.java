package dev.gpugen.lint.rules.efa;

import dev.gpugen.compat.Ec2TypeName;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** EFA interfaces can only be attached to instance types that support EFA. */
public final class EfaUnsupportedInstance extends PoolRule {
  public EfaUnsupportedInstance() {
    super(
        "efa-unsupported-instance",
        Severity.ERROR,
        "network.fabric is efa but the pool's instance type has no EFA",
        "With network.fabric: efa, gpugen attaches EFA interfaces to every node. EC2 rejects an"
            + " EFA interface on an instance type without EFA support (the launch fails), e.g. the"
            + " V100 p3.2xlarge or the smaller g6 sizes. gpugen knows the EFA types from its GPU"
            + " instance table and AWS's list of the other EFA types; any other type has no EFA."
            + " (A malformed or non-GPU type gets aws-instance-type-invalid instead.) Use an"
            + " EFA-capable type for the pool, or fabric: tcp. Sources:"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa.html#efa-instance-types ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa-acc-inst-types.html ,"
            + " https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    String type = p.pool().instanceType();
    if (p.spec().cloud().provider() != Provider.AWS
        || p.pool().fabric() != Fabric.EFA
        || p.table().efaSupported(type)) {
      return;
    }
    // A missing, malformed or non-GPU type has its own error (spec-pool-shape,
    // aws-instance-type-invalid) whose fix is another type: no EFA advice on top.
    if (Ec2TypeName.parse(type).filter(Ec2TypeName::nvidiaSeries).isEmpty()) {
      return;
    }
    findings.report(
        p.path("instanceType"),
        p.describe() + " has no EFA, but network.fabric is efa",
        findings.isWritten(SpecPath.of("network", "fabric"))
            ? "use an EFA-capable instance type, or network.fabric: tcp"
            : "use an EFA-capable instance type");
  }
}

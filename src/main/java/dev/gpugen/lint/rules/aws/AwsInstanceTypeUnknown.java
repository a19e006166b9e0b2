package dev.gpugen.lint.rules.aws;

import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.Ec2TypeName;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.yaml.Suggest;

/** An EC2 instance type gpugen's table does not know is most often a typo. */
public final class AwsInstanceTypeUnknown extends PoolRule {
  public AwsInstanceTypeUnknown() {
    super(
        "aws-instance-type-unknown",
        Severity.WARNING,
        "the pool's EC2 instance type is not in gpugen's GPU instance table",
        "gpugen's table lists every EC2 GPU instance size (P3/P3dn, P4d/P4de, P5/P5e/P5en, P6,"
            + " G4dn, G5, G5g, G6, G6e, Gr6, G7e) with its GPUs, NVSwitch and EFA network cards, each"
            + " with its source. A type that is not there gets no GPU, driver, Fabric Manager or"
            + " EFA checks and no GPU facts in the render (GPU count 0, no EFA interfaces). A"
            + " well-formed name of the P or G series may be newer than the table (this warning),"
            + " or a size its family does not have (p5.24xlarge), which EC2 would refuse at apply"
            + " time; a malformed name is aws-instance-type-invalid's error. Sources:"
            + " https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa.html#efa-instance-types");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    String type = p.pool().instanceType();
    // A malformed or non-GPU name is aws-instance-type-invalid's, a missing one spec-pool-shape's:
    // this warning is for a GPU type the table does not know yet.
    if (p.spec().cloud().provider() != Provider.AWS
        || p.hardware().aws().isPresent()
        || Ec2TypeName.parse(type).filter(Ec2TypeName::nvidiaSeries).isEmpty()) {
      return;
    }
    String guess =
        Suggest.closest(
            type, p.table().awsInstances().stream().map(AwsInstanceType::name).toList());
    findings.report(
        p.path("instanceType"),
        type
            + " is not an EC2 GPU instance type in gpugen's table (pool "
            + p.pool().name()
            + ")"
            + (guess == null ? "" : "; did you mean " + guess + "?"),
        guess == null
            ? "use a GPU instance type such as p5.48xlarge, g6e.12xlarge or g6.xlarge"
            : "write " + guess);
  }
}

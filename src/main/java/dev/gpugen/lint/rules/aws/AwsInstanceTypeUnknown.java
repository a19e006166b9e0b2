package dev.gpugen.lint.rules.aws;

import dev.gpugen.compat.AwsInstanceType;
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
            + " EFA checks and no GPU facts in the render (GPU count 0, no EFA interfaces): most"
            + " often a typo (p5.48xlarg), which EC2 would refuse at apply time. Sources:"
            + " https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa.html#efa-instance-types");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.spec().cloud().provider() != Provider.AWS || p.hardware().aws().isPresent()) {
      return;
    }
    String type = p.pool().instanceType();
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

package dev.gpugen.lint.rules.aws;

import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.Ec2TypeName;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.yaml.Suggest;
import java.util.Optional;

/**
 * An instanceType that is no EC2 instance type name (a typo), or one without NVIDIA GPUs: EC2 or
 * the driver install would refuse it, so it is refused here with the name to write.
 */
public final class AwsInstanceTypeInvalid extends PoolRule {
  public AwsInstanceTypeInvalid() {
    super(
        "aws-instance-type-invalid",
        Severity.ERROR,
        "the pool's instanceType is not an EC2 instance type name, or names one without NVIDIA GPUs",
        "An EC2 instance type name is a family (series letters, generation, options) and a size:"
            + " p5en.48xlarge, g6.xlarge. A name of another shape (p5.48xlarg) is a typo that EC2"
            + " refuses at apply time, after the network and the file system were created; gpugen"
            + " names the closest type of its table. A type of a series without NVIDIA GPUs (m5,"
            + " c7i, trn1, inf2, vt1: EC2's NVIDIA GPU types are the P, G and Gr series) cannot run"
            + " the driver, CUDA and validation a gpugen pool installs. Sources:"
            + " https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html ,"
            + " https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    String type = p.pool().instanceType();
    // A missing instanceType is spec-pool-shape's; a known type is fine.
    if (p.spec().cloud().provider() != Provider.AWS
        || type.isEmpty()
        || p.hardware().aws().isPresent()) {
      return;
    }
    Optional<Ec2TypeName> name = Ec2TypeName.parse(type);
    if (name.isEmpty()) {
      String guess =
          Suggest.closest(
              type, p.table().awsInstances().stream().map(AwsInstanceType::name).toList());
      findings.report(
          p.path("instanceType"),
          type
              + " is not an EC2 instance type name (pool "
              + p.pool().name()
              + ")"
              + (guess == null ? "" : "; did you mean " + guess + "?"),
          guess == null
              ? "write a type as FAMILY.SIZE, such as p5.48xlarge, g6e.12xlarge or g6.xlarge"
              : "write " + guess);
    } else if (!name.get().nvidiaSeries()) {
      findings.report(
          p.path("instanceType"),
          type
              + " is an EC2 instance type without NVIDIA GPUs (pool "
              + p.pool().name()
              + "; the "
              + name.get().family()
              + " family): a gpugen pool installs NVIDIA's driver and CUDA",
          "choose an NVIDIA GPU type of the P or G series, such as p5.48xlarge (training) or"
              + " g6e.12xlarge (inference)");
    }
  }
}

package dev.gpugen.lint.rules.aws;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;

/**
 * EC2 GPU types with Arm host CPUs (G5g: Graviton2; P6e-GB200: Grace) are refused until gpugen
 * renders for them: its Terraform selects an x86_64 Ubuntu AMI, and its roles install neither
 * NVIDIA's arm64 (sbsa) driver stack nor the IMEX service multi-node NVLink needs on GB200.
 */
public final class AwsArmInstanceUnsupported extends PoolRule {
  public AwsArmInstanceUnsupported() {
    super(
        "aws-arm-instance-unsupported",
        Severity.ERROR,
        "the pool's EC2 instance type has Arm host CPUs, which gpugen does not render for yet",
        "G5g (Graviton2 with T4G GPUs) and P6e-GB200 (Grace with B200 GPUs, NVL72 UltraServers) run"
            + " arm64 hosts. gpugen's Terraform selects an x86_64 Ubuntu AMI, which such a type"
            + " refuses at launch, and its roles install neither NVIDIA's arm64 (sbsa) packages nor"
            + " the NVIDIA IMEX service, which GPU-to-GPU communication over NVLink across the"
            + " instances of a GB200 UltraServer requires (configured with the addresses of every"
            + " node of the job). Rather than render a cluster that cannot boot or cannot use its"
            + " NVLink domain, gpugen refuses these types; use an x86_64 GPU type (p6-b200.48xlarge,"
            + " p5.48xlarge, g6e.*). Sources:"
            + " https://aws.amazon.com/ec2/instance-types/g5g/ ,"
            + " https://aws.amazon.com/ec2/instance-types/p6/ ,"
            + " https://docs.aws.amazon.com/pcs/latest/userguide/capacity-blocks-nvidia-imex.html ,"
            + " https://docs.nvidia.com/multi-node-nvlink-systems/imex-guide/overview.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.spec().cloud().provider() != Provider.AWS) {
      return;
    }
    p.hardware()
        .aws()
        .filter(a -> a.arm64())
        .ifPresent(
            a ->
                findings.report(
                    p.path("instanceType"),
                    p.describe()
                        + " has Arm host CPUs: gpugen renders x86_64 AMIs and packages only"
                        + (a.gpu().startsWith("GB") ? ", and no IMEX for multi-node NVLink" : ""),
                    "use an x86_64 GPU instance type such as p6-b200.48xlarge or p5.48xlarge"));
  }
}

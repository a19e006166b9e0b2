package dev.gpugen.lint.rules.aws;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.VcpuNeeds;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** What the spec's nodes need of the account's EC2 vCPU quotas, said before anything is applied. */
public final class AwsVcpuQuota extends Rule {
  public AwsVcpuQuota() {
    super(
        "aws-vcpu-quota",
        Severity.INFO,
        "the vCPUs the spec needs of each EC2 vCPU quota of its Region",
        "EC2 limits the vCPUs of running GPU instances per Region and account, in quotas by"
            + " instance family and market: Running On-Demand P instances (L-417A185B), Running"
            + " On-Demand G and VT instances (L-DB2E81BA), and for spot All P4, P3 and P2 Spot"
            + " Instance Requests (L-7212CCBC), All P5 Spot Instance Requests (L-C4BD4855) and All"
            + " G and VT Spot Instance Requests (L-3819A6DF). New accounts start at 0 vCPUs in"
            + " each, so a first terraform apply of p5.48xlarge nodes (192 vCPUs each) fails with"
            + " VcpuLimitExceeded after the network and the file system were created. This"
            + " finding adds up, per quota, each pool's count times its instance type's vCPUs;"
            + " gpugen up compares the sums with the account's quotas (aws service-quotas"
            + " get-service-quota) before it applies. Raise a quota in the Service Quotas console;"
            + " even with quota, on-demand capacity for the largest types is scarce: Capacity"
            + " Blocks for ML or On-Demand Capacity Reservations hold it for you. Sources:"
            + " https://docs.aws.amazon.com/ec2/latest/instancetypes/ec2-instance-quotas.html ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-spot-limits.html ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-capacity-blocks.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    VcpuNeeds needs = VcpuNeeds.of(plan);
    if (needs.needs().isEmpty()) {
      return;
    }
    List<String> parts = new ArrayList<>();
    for (VcpuNeeds.Need n : needs.needs()) {
      parts.add(
          n.vcpus()
              + " vCPUs of "
              + n.quota().code()
              + " ("
              + n.quota().name()
              + ": "
              + String.join(", ", n.pools())
              + ")");
    }
    // Without cloud.region (its own finding) the command has no --region: the CLI's default.
    Optional<String> region = plan.spec().cloud().region();
    String first = needs.needs().get(0).quota().code();
    findings.report(
        SpecPath.of("pools"),
        "the nodes need "
            + (parts.size() == 1
                ? parts.get(0)
                : String.join(", ", parts.subList(0, parts.size() - 1))
                    + " and "
                    + parts.get(parts.size() - 1))
            + region.map(r -> " in " + r).orElse("")
            + "; a new account has 0 of each"
            + (needs.unchecked().isEmpty()
                ? ""
                : "; no known quota for " + String.join(", ", needs.unchecked())),
        "compare with the account's: aws service-quotas get-service-quota --service-code ec2"
            + " --quota-code "
            + first
            + region.map(r -> " --region " + r).orElse("")
            + " (gpugen up checks each before it applies); raise one in the Service Quotas"
            + " console");
  }
}

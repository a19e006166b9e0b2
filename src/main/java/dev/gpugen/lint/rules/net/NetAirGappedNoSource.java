package dev.gpugen.lint.rules.net;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Internet;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.PullSource;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** An air-gapped VPC needs a source for what the nodes would otherwise download. */
public final class NetAirGappedNoSource extends Rule {
  public NetAirGappedNoSource() {
    super(
        "net-air-gapped-no-source",
        Severity.ERROR,
        "network.internet: none without pull from S3: the nodes cannot reach their bundle",
        "With internet: none the nodes reach nothing outside the VPC but S3 (the gateway"
            + " endpoint gpugen always adds) and, with the SSM connection, the SSM interface"
            + " endpoints. A push run from a controller, or pull mode from Git, then has no path"
            + " to the Ansible bundle: set ansible.mode: pull with ansible.pull.source: s3 (the"
            + " bundle comes from the checkpoint bucket through the endpoint). The packages and"
            + " files the plays install come from mirrors inside the network (mirrors:, rule"
            + " net-air-gapped-no-mirror). Source:"
            + " https://docs.aws.amazon.com/vpc/latest/privatelink/vpc-endpoints-s3.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    ClusterSpec.Ansible a = spec.ansible();
    if (spec.cloud().provider() == Provider.AWS
        && spec.network().internet() == Internet.NONE
        && !(a.pullMode() && a.pull().source() == PullSource.S3)) {
      findings.report(
          SpecPath.of("network", "internet"),
          "network.internet: none leaves the nodes no way to their Ansible bundle",
          "set ansible.mode: pull with ansible.pull.source: s3 and storage.checkpointBucket, or"
              + " internet: nat");
    }
  }
}

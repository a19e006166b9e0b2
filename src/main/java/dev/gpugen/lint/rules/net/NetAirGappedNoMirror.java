package dev.gpugen.lint.rules.net;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.Source;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** An air-gapped VPC reaches no public repository: every source the plays use needs a mirror. */
public final class NetAirGappedNoMirror extends Rule {
  public NetAirGappedNoMirror() {
    super(
        "net-air-gapped-no-mirror",
        Severity.ERROR,
        "network.internet: none, but a source the node plays download from has no mirror",
        "With internet: none the nodes reach nothing outside the VPC but its endpoints (S3's"
            + " gateway endpoint and the interface endpoints gpugen adds), so every apt"
            + " repository, file and Git repository the rendered plays download from must come"
            + " from a mirror inside the network: mirrors.ubuntu (the image's apt sources point"
            + " at REGION.ec2.archive.ubuntu.com), mirrors.cuda, mirrors.nvidiaContainerToolkit,"
            + " mirrors.git always; mirrors.kubernetes with kubernetes.distribution kubeadm;"
            + " mirrors.lustre with storage.lustre; mirrors.files on EFA pools (EFA installer,"
            + " GDRCopy) and with storage.lustre (the FSx repository's key); mirrors.helm.gpuOperator"
            + " and mirrors.registries for nvcr.io and registry.k8s.io with a kubernetes: section"
            + " (the GPU Operator's chart and images, https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/install-gpu-operator-air-gapped.html),"
            + " mirrors.helm.eksCharts and the EFA device plugin's ECR registry with EFA pools."
            + " A mirror is a"
            + " remote (proxy) repository of the upstream with its layout, as Artifactory and"
            + " Nexus offer them. One finding per missing mirror. Sources:"
            + " https://docs.aws.amazon.com/vpc/latest/privatelink/vpc-endpoints-s3.html,"
            + " https://documentation.ubuntu.com/server/explanation/software/package-management/"
            + " (Ubuntu's archive and mirrors).");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    if (!plan.aws() || plan.spec().network().internet() != dev.gpugen.spec.Internet.NONE) {
      return;
    }
    for (Source s : plan.sources().used()) {
      if (plan.sources().mirror(s).isEmpty()) {
        findings.report(
            SpecPath.of("network", "internet"),
            "network.internet: none, but the nodes would download from "
                + s.upstream()
                + ", which they cannot reach",
            "set mirrors." + s.key() + " to a mirror of " + s.upstream() + " inside the network");
      }
    }
    for (String r : plan.sources().registries()) {
      if (!plan.sources().registryMirrors().containsKey(r)) {
        findings.report(
            SpecPath.of("network", "internet"),
            "network.internet: none, but the nodes would pull images of what gpugen deploys from "
                + r
                + ", which they cannot reach",
            "set mirrors.registries: {\""
                + r
                + "\": URL} to a mirror of "
                + r
                + " inside the network");
      }
    }
  }
}

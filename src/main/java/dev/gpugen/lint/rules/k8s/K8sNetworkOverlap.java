package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.KubeadmNetwork;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/**
 * kubeadm's pod and Service networks must not overlap the hosts' network or each other: gpugen
 * picks both from candidates (ClusterPlan.kubeadmNetwork) and this rule fires when every candidate
 * is taken.
 */
public final class K8sNetworkOverlap extends Rule {
  public K8sNetworkOverlap() {
    super(
        "k8s-network-overlap",
        Severity.ERROR,
        "kubeadm's pod or Service network overlaps the hosts' network or the other",
        "kubeadm init gets a pod network (--pod-network-cidr: 10.244.0.0/16, else 192.168.0.0/16,"
            + " else 172.16.0.0/16) and a Service network (--service-cidr: 10.96.0.0/12, kubeadm's"
            + " default, else 172.20.0.0/16, else 10.100.0.0/16), each the first candidate that"
            + " holds none of the spec's host addresses and overlaps neither the VPC nor the"
            + " subnet (on AWS) nor the other. When every candidate is taken, packets for a pod or"
            + " a Service address go to a host instead, or the reverse. Renumber the hosts or the"
            + " VPC so that one candidate of each is free. Sources:"
            + " https://kubernetes.io/docs/reference/setup-tools/kubeadm/kubeadm-init/"
            + " (--pod-network-cidr, --service-cidr),"
            + " https://kubernetes.io/docs/concepts/services-networking/cluster-ip-allocation/");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    plan.kubeadmNetwork()
        .ifPresent(
            n -> {
              for (String clash : n.clashes()) {
                findings.report(
                    SpecPath.of("kubernetes", "distribution"),
                    "kubeadm's networks clash: "
                        + clash
                        + " (every candidate of its kind is taken)",
                    hint(n));
              }
            });
  }

  private static String hint(KubeadmNetwork n) {
    return n.networks().isEmpty()
        ? "give the hosts addresses outside one of 10.244.0.0/16, 192.168.0.0/16, 172.16.0.0/16"
            + " and one of 10.96.0.0/12, 172.20.0.0/16, 10.100.0.0/16"
        : "choose a vpcCidr and subnetCidr that leave one of 10.244.0.0/16, 192.168.0.0/16,"
            + " 172.16.0.0/16 and one of 10.96.0.0/12, 172.20.0.0/16, 10.100.0.0/16 free";
  }
}

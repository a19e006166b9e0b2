package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** Each distribution is rendered for the providers where gpugen can build it. */
public final class K8sDistributionProvider extends Rule {
  public K8sDistributionProvider() {
    super(
        "k8s-distribution-provider",
        Severity.ERROR,
        "kubernetes.distribution that the provider cannot have",
        "eks is Amazon EKS: its control plane, access entries and add-ons are AWS resources, so it"
            + " needs cloud.provider: aws. kubeadm is rendered for static hosts, where"
            + " kubernetes.controlPlane.hosts names the control plane, and for AWS, where the"
            + " Terraform creates control-plane instances (kubernetes.controlPlane.count) and play"
            + " 02b joins the nodes, so only with ansible.mode push. On gcp the cluster is GKE's"
            + " (cloud.gke): kubernetes.distribution may only say existing there."
            + " Sources: https://docs.aws.amazon.com/eks/latest/userguide/clusters.html ,"
            + " https://kubernetes.io/docs/setup/production-environment/tools/kubeadm/create-cluster-kubeadm/ ,"
            + " https://cloud.google.com/kubernetes-engine/docs/concepts/kubernetes-engine-overview");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    spec.kubernetes()
        .ifPresent(
            k -> {
              Provider provider = spec.cloud().provider();
              SpecPath path = SpecPath.of("kubernetes", "distribution");
              if (provider == Provider.GCP && !k.existing()) {
                findings.report(
                    path,
                    "kubernetes.distribution " + k.distribution() + " on gcp: the cluster is GKE's",
                    "remove kubernetes:, or write distribution: existing (cloud.gke creates or"
                        + " names the cluster)");
              } else if (k.eks() && provider != Provider.AWS) {
                findings.report(
                    path,
                    "kubernetes.distribution eks needs cloud.provider aws, not " + provider,
                    "use distribution: kubeadm, or existing");
              } else if (k.kubeadm() && provider == Provider.AWS && plan.pullMode()) {
                findings.report(
                    path,
                    "kubernetes.distribution kubeadm on aws is rendered for ansible.mode push"
                        + " only: play 02b joins each node with a token made for it on the control"
                        + " plane, which a node pulling its own configuration cannot do",
                    "use ansible.mode: push, or distribution: eks (its nodes join at boot)");
              } else if (k.kubeadm()
                  && provider == Provider.STATIC
                  && k.controlPlaneHosts().isEmpty()) {
                findings.report(
                    SpecPath.of("kubernetes"),
                    "kubernetes.distribution kubeadm needs kubernetes.controlPlane.hosts: the host"
                        + " that runs kubeadm init",
                    "add controlPlane: {hosts: [{name: cp01, address: 10.0.0.10}]}");
              }
            });
  }
}

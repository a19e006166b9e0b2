package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/**
 * A private Kubernetes API endpoint that no one outside the nodes may reach: the controller's Helm
 * and API calls (plays 02b-05) time out.
 */
public final class K8sApiUnreachable extends Rule {
  public K8sApiUnreachable() {
    super(
        "k8s-api-unreachable",
        Severity.WARNING,
        "the private Kubernetes API endpoint admits no controller",
        "The API server gpugen creates on aws has a private endpoint only (EKS with endpointAccess"
            + " private; kubeadm's internal load balancer or control-plane instance), and its"
            + " security group admits the nodes and kubernetes.apiIngressCidrs (default:"
            + " network.sshIngressCidrs). With no CIDR there and no ansible.bastion, the"
            + " controller's Helm and Kubernetes API calls (plays 02b-05, kubectl) time out. List"
            + " the controller's or the bastion's address range as the VPC sees it (VPN, Direct"
            + " Connect, peering) in kubernetes.apiIngressCidrs, or run the plays from a host in"
            + " the node security group (for example through an SSM port forward from a node)."
            + " Sources: https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html ,"
            + " https://kubernetes.io/docs/reference/networking/ports-and-protocols/");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    if (!plan.aws() || spec.connection().bastion().isPresent()) {
      return;
    }
    spec.kubernetes()
        .filter(k -> (k.eks() && !k.publicEndpoint()) || k.kubeadm())
        .filter(k -> k.apiIngressCidrs().isEmpty())
        .ifPresent(
            k -> {
              SpecPath written = SpecPath.of("kubernetes", "apiIngressCidrs");
              findings.report(
                  findings.isWritten(written)
                      ? written
                      : SpecPath.of("kubernetes", k.eks() ? "endpointAccess" : "distribution"),
                  "the "
                      + (k.eks() ? "EKS API's private endpoint" : "kubeadm API server")
                      + " admits the nodes only: kubernetes.apiIngressCidrs (default:"
                      + " network.sshIngressCidrs) is empty and there is no ansible.bastion, so the"
                      + " controller's Helm and API calls time out",
                  "add the controller's CIDR to kubernetes.apiIngressCidrs (as the VPC sees it),"
                      + " or run plays 02b-05 from a host in the node security group");
            });
  }
}

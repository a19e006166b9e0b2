package dev.gpugen.lint.rules.sec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.List;

/** The Kubernetes API server open to the whole internet through kubernetes.apiIngressCidrs. */
public final class SecApiOpenToWorld extends Rule {
  public SecApiOpenToWorld() {
    super(
        "sec-api-open-to-world",
        Severity.WARNING,
        "the Kubernetes API server is open to the whole internet",
        "kubernetes.apiIngressCidrs (default: network.sshIngressCidrs) containing 0.0.0.0/0 (or any"
            + " /0) lets every address reach the API server gpugen creates on aws (443 on the EKS"
            + " cluster security group, 6443 on kubeadm's load balancer or control plane);"
            + " authentication still applies, but the API server's own vulnerabilities and"
            + " credential guessing are then the internet's to try. List the controller's or the"
            + " bastion's CIDRs. A warning, as sec-ssh-open-to-world is: run with --fail-on warning"
            + " in CI to refuse it."
            + " Sources: https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html ,"
            + " https://docs.aws.amazon.com/vpc/latest/userguide/vpc-security-best-practices.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    if (!plan.aws()) {
      return;
    }
    spec.kubernetes()
        .filter(k -> k.eks() || k.kubeadm())
        .ifPresent(
            k -> {
              // Written, or the default: then the finding points at the SSH CIDR it came from.
              boolean written = findings.isWritten(SpecPath.of("kubernetes", "apiIngressCidrs"));
              List<String> cidrs = k.apiIngressCidrs();
              for (int i = 0; i < cidrs.size(); i++) {
                if (cidrs.get(i).endsWith("/0")) {
                  findings.report(
                      written
                          ? SpecPath.of("kubernetes", "apiIngressCidrs", i)
                          : SpecPath.of("network", "sshIngressCidrs", i),
                      (written
                              ? "kubernetes.apiIngressCidrs[" + i + "] "
                              : "network.sshIngressCidrs["
                                  + i
                                  + "], the default of kubernetes.apiIngressCidrs, ")
                          + cidrs.get(i)
                          + " opens the Kubernetes API server to the whole internet",
                      "list the controller's or bastion's CIDRs in kubernetes.apiIngressCidrs");
                }
              }
            });
  }
}

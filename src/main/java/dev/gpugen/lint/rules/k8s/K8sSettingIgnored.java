package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.List;

/** A kubernetes: key that only one distribution reads does nothing with the others. */
public final class K8sSettingIgnored extends Rule {
  private static final List<String> EKS_ONLY =
      List.of("endpointAccess", "publicCidrs", "admins", "addons");
  private static final List<String> KUBEADM_ONLY = List.of("controlPlane", "cni");

  public K8sSettingIgnored() {
    super(
        "k8s-setting-ignored",
        Severity.WARNING,
        "kubernetes: key the chosen distribution does not read",
        "endpointAccess, publicCidrs and admins configure the Amazon EKS control plane (endpoint"
            + " access and access entries), addons its add-on versions; systemPool is the untainted node pool gpugen adds on GKE and EKS, not to a kubeadm or existing cluster on aws or static hosts; controlPlane and cni configure kubeadm. With another"
            + " distribution they change nothing, and publicCidrs does nothing while the endpoint"
            + " is private. Within controlPlane, hosts and endpoint describe a static control"
            + " plane, instanceType and count the instances gpugen creates on aws; apiIngressCidrs"
            + " opens the API server gpugen creates on aws (eks, kubeadm) to the controller."
            + " Remove them,"
            + " or pick the distribution or provider they belong to."
            + " Sources: https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html ,"
            + " https://docs.aws.amazon.com/eks/latest/userguide/access-entries.html ,"
            + " https://kubernetes.io/docs/reference/setup-tools/kubeadm/kubeadm-init/");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    spec.kubernetes()
        .ifPresent(
            k -> {
              for (String key : EKS_ONLY) {
                ignored(findings, k, key, !k.eks(), "eks");
              }
              ignored(
                  findings,
                  k,
                  "systemPool",
                  !k.eks() && spec.cloud().provider() != Provider.GCP,
                  "eks (and GKE)");
              for (String key : KUBEADM_ONLY) {
                ignored(findings, k, key, !k.kubeadm(), "kubeadm");
              }
              // kubeadm's control plane: hosts and endpoint are the static one's, instanceType
              // and count describe the instances the Terraform creates on aws.
              if (k.kubeadm()) {
                boolean aws = spec.cloud().provider() == Provider.AWS;
                for (String key : List.of("hosts", "endpoint")) {
                  controlPlane(findings, key, aws, Provider.STATIC, Provider.AWS);
                }
                for (String key : List.of("instanceType", "count")) {
                  controlPlane(findings, key, !aws, Provider.AWS, spec.cloud().provider());
                }
              }
              // Who may reach the API server gpugen creates: eks, or kubeadm's instances on aws.
              SpecPath api = SpecPath.of("kubernetes", "apiIngressCidrs");
              boolean created = spec.cloud().provider() == Provider.AWS && (k.eks() || k.kubeadm());
              if (!created && findings.isWritten(api)) {
                findings.report(
                    api,
                    "kubernetes.apiIngressCidrs is read for an API server gpugen creates on aws"
                        + " (eks, kubeadm), not for distribution "
                        + k.distribution()
                        + " on "
                        + spec.cloud().provider(),
                    "remove kubernetes.apiIngressCidrs; open your own API server's firewall");
              }
              if (k.eks() && !k.publicEndpoint()) {
                SpecPath path = SpecPath.of("kubernetes", "publicCidrs");
                if (findings.isWritten(path)) {
                  findings.report(
                      path,
                      "kubernetes.publicCidrs does nothing while endpointAccess is private",
                      "remove publicCidrs, or set endpointAccess: public-and-private");
                }
              }
            });
  }

  private static void controlPlane(
      Findings findings, String key, boolean ignored, Provider owner, Provider provider) {
    SpecPath path = SpecPath.of("kubernetes", "controlPlane", key);
    if (ignored && findings.isWritten(path)) {
      findings.report(
          path,
          "kubernetes.controlPlane."
              + key
              + " is read with cloud.provider "
              + owner
              + " only, not "
              + provider,
          "remove kubernetes.controlPlane." + key);
    }
  }

  private static void ignored(
      Findings findings, ClusterSpec.Kubernetes k, String key, boolean ignored, String owner) {
    SpecPath path = SpecPath.of("kubernetes", key);
    if (ignored && findings.isWritten(path)) {
      findings.report(
          path,
          "kubernetes."
              + key
              + " is read by distribution "
              + owner
              + " only, not "
              + k.distribution(),
          "remove kubernetes." + key);
    }
  }
}

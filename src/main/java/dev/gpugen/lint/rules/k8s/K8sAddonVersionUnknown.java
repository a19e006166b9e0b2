package dev.gpugen.lint.rules.k8s;

import dev.gpugen.compat.EksAddonVersions;
import dev.gpugen.compat.KubernetesSupport;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.List;

/** gpugen pins every EKS add-on it installs; a minor its table lacks needs the spec's version. */
public final class K8sAddonVersionUnknown extends Rule {
  public K8sAddonVersionUnknown() {
    super(
        "k8s-addon-version-unknown",
        Severity.ERROR,
        "EKS add-on with no pinned version for kubernetes.version",
        "gpugen installs CoreDNS, kube-proxy and the Amazon VPC CNI as EKS add-ons at exact"
            + " versions, so that a later terraform apply never upgrades the CNI under running"
            + " nodes (EKS's default version for a minor moves with each build). The versions"
            + " come from the add-on pages of the Amazon EKS user guide, per Kubernetes minor;"
            + " for a minor the table has no row for, name the version yourself:"
            + " kubernetes.addons.<add-on>, one that `aws eks describe-addon-versions"
            + " --addon-name <add-on> --kubernetes-version <minor>` lists, or use a minor the"
            + " table covers. A kube-proxy version must be of the cluster's minor"
            + " (v1.33.x-eksbuild.N on 1.33): EKS offers no other and refuses it at apply. Sources: "
            + String.join(
                " , ", EksAddonVersions.CORE.stream().map(EksAddonVersions.SOURCE::get).toList()));
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    plan.spec()
        .kubernetes()
        // A minor EKS does not offer is k8s-version-unsupported's finding alone.
        .filter(k -> k.eks() && KubernetesSupport.minors(k.distribution()).contains(k.version()))
        .ifPresent(
            k -> {
              String proxy = k.addonVersions().get("kube-proxy");
              if (proxy != null && !proxy.startsWith("v" + k.version() + ".")) {
                findings.report(
                    SpecPath.of("kubernetes", "addons").key("kube-proxy"),
                    "kubernetes.addons.kube-proxy is "
                        + proxy
                        + ", not a build of Kubernetes "
                        + k.version()
                        + ": EKS offers kube-proxy only at the cluster's minor and refuses it at"
                        + " terraform apply",
                    "name a v"
                        + k.version()
                        + ".x-eksbuild.N version `aws eks describe-addon-versions --addon-name"
                        + " kube-proxy --kubernetes-version "
                        + k.version()
                        + "` lists, or leave kube-proxy out for gpugen's");
              }
              for (String addon : EksAddonVersions.CORE) {
                if (plan.eksAddonVersions().containsKey(addon)) {
                  continue;
                }
                List<String> minors = EksAddonVersions.minors(addon);
                findings.report(
                    SpecPath.of("kubernetes", "version"),
                    "gpugen pins no "
                        + addon
                        + " add-on version for Kubernetes "
                        + k.version()
                        + " (its table covers "
                        + String.join(", ", minors)
                        + "; "
                        + EksAddonVersions.SOURCE.get(addon)
                        + ")",
                    "set kubernetes.addons."
                        + addon
                        + " to a version `aws eks describe-addon-versions --addon-name "
                        + addon
                        + " --kubernetes-version "
                        + k.version()
                        + "` lists, or use one of "
                        + String.join(", ", minors));
              }
            });
  }
}

package dev.gpugen.lint.rules.sec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.Source;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.List;

/**
 * A mirror over plain http that serves what nothing on the nodes verifies: Helm charts, container
 * images by tag, Git sources by tag. Whoever is on the path chooses what runs, privileged.
 */
public final class SecUnverifiedMirrorOverHttp extends Rule {
  /** The mirrors whose content no signature or pinned checksum covers, and what they serve. */
  private static final List<Source> UNVERIFIED =
      List.of(
          Source.HELM_GPU_OPERATOR,
          Source.HELM_EKS_CHARTS,
          Source.HELM_CILIUM,
          Source.HELM_TIGERA,
          Source.GIT);

  public SecUnverifiedMirrorOverHttp() {
    super(
        "sec-unverified-mirror-over-http",
        Severity.ERROR,
        "a plain http mirror serves charts, images or sources that nothing verifies",
        "sec-mirror-key-over-http covers the mirrors whose packages apt checks against a signing"
            + " key; these mirrors have no such check, so over http anyone on the path serves"
            + " what the cluster runs. mirrors.helm.*: Helm trusts whatever chart the repository"
            + " serves; only a provenance file checked with --verify proves a chart's origin, and"
            + " the charts gpugen installs (GPU Operator, EFA device plugin, Cilium, Calico) are"
            + " installed without it, their pods privileged on every node. mirrors.registries:"
            + " containerd pulls the GPU Operator's images by tag from the URL in hosts.toml, and a"
            + " tag is whatever the registry answers; over http the answer is the path's. The"
            + " driver container, device plugin and toolkit run privileged on every GPU node."
            + " mirrors.git: play 05 builds nccl-tests from a tag and runs it as root. Use https"
            + " (with your CA on the nodes for an internal registry), whose certificate vouches"
            + " for the server. Sources: https://helm.sh/docs/topics/provenance/ ,"
            + " https://github.com/containerd/containerd/blob/main/docs/hosts.md (server and"
            + " host URLs, ca and skip_verify),"
            + " https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/install-gpu-operator-air-gapped.html ,"
            + " https://git-scm.com/docs/git-clone (a tag is a movable name).");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    for (Source s : UNVERIFIED) {
      plan.sources()
          .mirror(s)
          .filter(SecUnverifiedMirrorOverHttp::plainHttp)
          .ifPresent(
              url ->
                  findings.report(
                      s.path(),
                      "mirrors."
                          + s.key()
                          + " is plain http, and nothing checks what it serves ("
                          + what(s)
                          + "): anyone on the path chooses what runs",
                      "use https:// for mirrors." + s.key()));
    }
    plan.sources()
        .registryMirrors()
        .forEach(
            (registry, url) -> {
              if (plainHttp(url)) {
                findings.report(
                    SpecPath.of("mirrors", "registries", registry),
                    "mirrors.registries."
                        + registry
                        + " is plain http, and containerd pulls "
                        + registry
                        + "'s images by tag from it unchecked (the GPU Operator's run privileged"
                        + " on every GPU node): anyone on the path chooses the images",
                    "use https:// for the mirror of " + registry + ", with your CA on the nodes");
              }
            });
  }

  private static boolean plainHttp(String url) {
    return url.regionMatches(true, 0, "http://", 0, 7);
  }

  private static String what(Source s) {
    return switch (s) {
      case HELM_GPU_OPERATOR -> "the GPU Operator chart, installed without helm --verify";
      case HELM_EKS_CHARTS -> "the EFA device plugin chart, installed without helm --verify";
      case HELM_CILIUM -> "the Cilium chart, installed without helm --verify";
      case HELM_TIGERA -> "the Calico chart, installed without helm --verify";
      case GIT -> "nccl-tests at a tag, built and run as root by play 05";
      default -> s.upstream();
    };
  }
}

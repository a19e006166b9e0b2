package dev.gpugen.lint.rules.sec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.Source;
import dev.gpugen.spec.Severity;

/**
 * A mirror over plain http that serves a trust anchor: the key apt then trusts for every package of
 * that repository, fetched with no checksum, so whoever is on the path chooses the key.
 */
public final class SecMirrorKeyOverHttp extends Rule {
  public SecMirrorKeyOverHttp() {
    super(
        "sec-mirror-key-over-http",
        Severity.ERROR,
        "a plain http mirror serves a repository signing key the nodes install unchecked",
        "apt checks every package against the repository's signing key, so a mirror may serve"
            + " packages over plain http (Ubuntu's own archive does). The key itself is another"
            + " matter: the node plays fetch it from the mirror and trust it, with no checksum."
            + " Over http anyone on the path can substitute it and then sign any package, driver"
            + " and container runtime included, which the plays install as root. These mirrors"
            + " serve keys: mirrors.cuda (the cuda-keyring package, installed as a .deb),"
            + " mirrors.nvidiaContainerToolkit (gpgkey), mirrors.kubernetes (each minor's"
            + " Release.key) and, with storage.lustre, mirrors.files"
            + " (fsx-ubuntu-public-key.asc; the EFA installer and GDRCopy it also serves are"
            + " checked against pinned SHA-256 sums, so http is enough for them alone). Use an"
            + " https URL, whose certificate then vouches for the key. Sources:"
            + " https://wiki.debian.org/SecureApt ,"
            + " https://docs.nvidia.com/cuda/cuda-installation-guide-linux/ (network repository:"
            + " cuda-keyring),"
            + " https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html ,"
            + " https://kubernetes.io/docs/setup/production-environment/tools/kubeadm/install-kubeadm/ ,"
            + " https://docs.aws.amazon.com/fsx/latest/LustreGuide/install-lustre-client.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    report(plan, findings, Source.CUDA, "NVIDIA's CUDA signing key (the cuda-keyring package)");
    report(
        plan,
        findings,
        Source.NVIDIA_CONTAINER_TOOLKIT,
        "the NVIDIA Container Toolkit repository's signing key (gpgkey)");
    report(plan, findings, Source.KUBERNETES, "pkgs.k8s.io's signing key (Release.key)");
    if (plan.lustre().isPresent()) {
      report(
          plan,
          findings,
          Source.FILES,
          "the FSx Lustre client repository's signing key (fsx-ubuntu-public-key.asc)");
    }
  }

  private static void report(ClusterPlan plan, Findings findings, Source s, String key) {
    String url = plan.sources().usedMirror(s);
    if (url.startsWith("http://")) {
      findings.report(
          s.path(),
          "mirrors."
              + s.key()
              + " is plain http, and the nodes install "
              + key
              + " from it without a checksum: anyone on the path can swap the key and sign any"
              + " package",
          "use https:// for mirrors." + s.key());
    }
  }
}

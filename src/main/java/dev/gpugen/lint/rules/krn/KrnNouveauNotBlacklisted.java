package dev.gpugen.lint.rules.krn;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** The NVIDIA driver cannot bind a GPU that nouveau already holds. */
public final class KrnNouveauNotBlacklisted extends Rule {
  public KrnNouveauNotBlacklisted() {
    super(
        "krn-nouveau-not-blacklisted",
        Severity.WARNING,
        "kernel.blacklistNouveau is off",
        "The open-source nouveau driver claims NVIDIA GPUs at boot; the NVIDIA driver then cannot"
            + " load (nvidia-smi: \"NVIDIA-SMI has failed\"). NVIDIA's installation guide blacklists"
            + " it (blacklist nouveau, options nouveau modeset=0, initramfs regenerated), which"
            + " gpugen's play 00 does unless kernel.blacklistNouveau is false. Turn it off only on"
            + " images that already blacklist nouveau. The generated play"
            + " carries the modprobe options itself."
            + " Source: https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    if (!spec.kernel().blacklistNouveau()) {
      findings.report(
          SpecPath.of("kernel", "blacklistNouveau"),
          "kernel.blacklistNouveau is false: nouveau may hold the GPUs and the NVIDIA driver then"
              + " fails to load",
          "remove the key (default true) unless the image already blacklists nouveau");
    }
  }
}

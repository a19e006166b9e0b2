package dev.gpugen.lint.rules.drv;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;

/** A bare-metal GPU model that comes on NVSwitch baseboards and without them must say which. */
public final class DrvNvswitchAmbiguous extends PoolRule {
  public DrvNvswitchAmbiguous() {
    super(
        "drv-nvswitch-ambiguous",
        Severity.ERROR,
        "a bare-metal pool's GPUs may or may not sit on an NVSwitch baseboard",
        "Fabric Manager is for \"NVSwitch-based single-node HGX and DGX systems\": the HGX A100,"
            + " H100, H200, B200 and B300 8-GPU baseboards. The same GPUs also come as PCIe cards"
            + " and NVL pairs, with no NVSwitch. Play 01 installs Fabric Manager and treats its"
            + " start as fatal on NVSwitch systems (the GPUs are unusable without it), and leaves"
            + " it out elsewhere (where it fails to start). Eight H100s can be either, so the spec"
            + " must say it: gpu.nvswitch true for an HGX/SXM baseboard, false for PCIe or NVL, or"
            + " a model name that says the board (h100-sxm, h100-pcie, h100-nvl; b200 comes only"
            + " on HGX). Sources:"
            + " https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html ,"
            + " https://docs.nvidia.com/ai-enterprise/release-8/8.0/infra-software/vgpu/features/nvswitch.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (!p.hardware().nvswitchUnstated()) {
      return;
    }
    String model = p.pool().gpu().map(g -> g.model()).orElse("");
    findings.report(
        p.path("gpu", "model"),
        p.describe()
            + ": "
            + p.hardware().gpus()
            + "x "
            + model
            + " may be an HGX baseboard with NVSwitch (Fabric Manager required) or PCIe/NVL cards"
            + " without it (Fabric Manager fails to start)",
        "add nvswitch: true (HGX/SXM) or nvswitch: false (PCIe, NVL) to pools["
            + p.index()
            + "].gpu, or name the board: "
            + model.toLowerCase(java.util.Locale.ROOT)
            + "-sxm or "
            + model.toLowerCase(java.util.Locale.ROOT)
            + "-pcie");
  }
}

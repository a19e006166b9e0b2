package dev.gpugen.lint.rules.rdma;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** InfiniBand/RoCE settings on a pool whose fabric is neither do nothing. */
public final class RdmaSettingIgnored extends PoolRule {
  public RdmaSettingIgnored() {
    super(
        "rdma-setting-ignored",
        Severity.WARNING,
        "an InfiniBand/RoCE setting on a pool whose fabric is neither",
        "pools[].rdma (the HCA ports and link rate the hosts must show, the preflight checks) and"
            + " software.docaOfed (NVIDIA's DOCA-OFED before the driver) configure the InfiniBand"
            + " or RoCE HCAs of a pool's hosts. On a pool whose fabric is efa or tcp gpugen renders"
            + " none of it: the EFA installer brings its own rdma-core, and a TCP pool has no HCA"
            + " NCCL uses. Set the pool's fabric (pools[].fabric: infiniband or roce) or remove the"
            + " setting. Sources:"
            + " https://docs.nvidia.com/doca/sdk/DOCA-Host+Installation+and+Upgrade ,"
            + " https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    Fabric fabric = p.pool().fabric();
    if (fabric == Fabric.INFINIBAND || fabric == Fabric.ROCE) {
      return;
    }
    for (String key : new String[] {"hcaPorts", "linkGbps", "preflight"}) {
      SpecPath path = p.path("rdma", key);
      if (findings.isWritten(path)) {
        findings.report(
            path,
            "pools["
                + p.index()
                + "].rdma."
                + key
                + " does nothing: "
                + p.describe()
                + " has the "
                + fabric
                + " fabric",
            "remove it, or set pools[" + p.index() + "].fabric: infiniband (or roce)");
      }
    }
    if (p.software().docaOfed().isPresent()) {
      findings.report(
          findings.software(p.index(), "docaOfed"),
          "software.docaOfed does nothing on "
              + p.describe()
              + ": its fabric is "
              + fabric
              + ", and DOCA-OFED is installed on InfiniBand/RoCE pools only",
          "remove it, or set it on the InfiniBand/RoCE pools (pools[].software.docaOfed)");
    }
  }
}

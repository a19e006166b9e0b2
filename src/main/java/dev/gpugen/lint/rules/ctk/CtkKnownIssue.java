package dev.gpugen.lint.rules.ctk;

import dev.gpugen.compat.ContainerToolkitRelease;
import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;

/** Container Toolkit releases with a defect that the next release fixes. */
public final class CtkKnownIssue extends PoolRule {
  public CtkKnownIssue() {
    super(
        "ctk-known-issue",
        Severity.WARNING,
        "the NVIDIA Container Toolkit version has a known defect",
        "Some Container Toolkit releases have a defect fixed in the next one. 1.18.0's"
            + " `nvidia-ctk runtime configure` overwrites the imports field of the top-level"
            + " containerd config, so previously imported drop-ins are lost; 1.18.1 fixes it."
            + " Skip such releases."
            + " Sources: https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/release-notes.html ,"
            + " https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/release-notes.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    Version ctk = Version.parse(p.software().containerToolkit());
    p.table()
        .containerToolkit(ctk)
        .flatMap(ContainerToolkitRelease::knownIssue)
        .ifPresent(
            issue ->
                findings.report(
                    findings.software(p.index(), "containerToolkit"),
                    "NVIDIA Container Toolkit " + ctk + " has a known issue: " + issue,
                    "use another release, e.g. 1.17.8 or 1.18.1"));
  }
}

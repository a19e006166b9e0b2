package dev.gpugen.lint.rules.ctk;

import dev.gpugen.compat.ContainerToolkitRelease;
import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;
import java.util.List;
import java.util.stream.Collectors;

/** Container Toolkit releases with known container-escape CVEs. */
public final class CtkVulnerableVersion extends PoolRule {
  public CtkVulnerableVersion() {
    super(
        "ctk-vulnerable-version",
        Severity.ERROR,
        "the NVIDIA Container Toolkit version has known security holes",
        "NVIDIA Container Toolkit releases before 1.17.4 have published vulnerabilities; the worst"
            + " let a crafted container image reach the host file system (CVE-2024-0132, critical,"
            + " fixed in 1.16.2, and its bypass CVE-2025-23359, fixed in 1.17.4); CVE-2024-0134 and"
            + " CVE-2024-0135/0136/0137 were fixed in 1.17.0 and 1.17.3. Use"
            + " 1.17.4 or newer."
            + " Source: https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/release-notes.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    Version ctk = Version.parse(p.software().containerToolkit());
    Version floor = p.table().containerToolkitSecurityFloor();
    if (!ctk.isBefore(floor)) {
      return;
    }
    List<String> cves =
        p.table().containerToolkitReleases().stream()
            .filter(r -> ctk.isBefore(r.version()))
            .map(ContainerToolkitRelease::fixesCves)
            .flatMap(List::stream)
            .toList();
    findings.report(
        findings.software(p.index(), "containerToolkit"),
        "NVIDIA Container Toolkit "
            + ctk
            + " is vulnerable ("
            + cves.stream().collect(Collectors.joining(", "))
            + ")",
        "use " + floor + " or newer, e.g. 1.17.8");
  }
}

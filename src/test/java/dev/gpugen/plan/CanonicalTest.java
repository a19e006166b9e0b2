package dev.gpugen.plan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Golden;
import dev.gpugen.TestSpecs;
import dev.gpugen.spec.ClusterSpec;
import java.nio.file.Files;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * kubernetes.addons came after renders recorded fingerprints: a spec that does not set it keeps the
 * fingerprint an earlier gpugen recorded (no empty addonVersions in the canonical form, which would
 * drop every pool's NCCL validation record after an upgrade), one that sets it changes it.
 */
class CanonicalTest {
  @Test
  void anUnsetAddOnMapStaysOutOfTheFingerprint() throws Exception {
    String kubeadm =
        Files.readString(
            Golden.repo().resolve("src/test/resources/golden/static-kubeadm-ha/spec.yaml"));
    String canonical = Canonical.json(TestSpecs.parse(kubeadm), Set.of());
    assertTrue(canonical.contains("\"kubernetes\":{"), canonical);
    assertFalse(canonical.contains("addonVersions"), canonical);

    ClusterSpec eks =
        TestSpecs.read(
            Golden.repo().resolve("src/test/resources/golden/aws-eks-pull/spec.yaml"),
            Optional.empty());
    assertFalse(Canonical.json(eks, Set.of()).contains("addonVersions"));
    String pinned =
        Files.readString(Golden.repo().resolve("src/test/resources/golden/aws-eks-pull/spec.yaml"))
            .replace(
                "  version: \"1.32\"\n",
                "  version: \"1.32\"\n  addons: {vpc-cni: v1.19.2-eksbuild.1}\n");
    assertTrue(
        Canonical.json(TestSpecs.parse(pinned), Set.of())
            .contains("\"addonVersions\":{\"vpc-cni\":\"v1.19.2-eksbuild.1\"}"));
  }
}

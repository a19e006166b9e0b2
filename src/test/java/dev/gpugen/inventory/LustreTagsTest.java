package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.failure.Failure;
import dev.gpugen.inventory.Ec2StandIn.Instance;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The FSx for Lustre address Terraform tags every node with reaches the host as
 * gpugen_lustre_dns_name and gpugen_lustre_mount_name, which the role lustre_client mounts; a value
 * that could carry Jinja or break an fstab line is dropped with a warning.
 */
class LustreTagsTest {
  private static final String DNS = "fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com";

  private static InventoryConfig config() throws Failure {
    Map<String, String> vars = new HashMap<>(Map.of("GPUGEN_CACHE_DIR", "/nonexistent"));
    return new InventoryConfigReader(vars).read(Optional.of(StandIns.SMALL_FLEET_CONFIG));
  }

  private static Instance node(int n) {
    return Instance.of(
        String.format("i-0c%015d", n),
        "p5.48xlarge",
        "us-east-1a",
        Fleet.tags("demo", "prod", "h100-infer", "node-" + n));
  }

  private static InventoryBuilder.Result build(Instance... instances) throws Exception {
    return InventoryBuilder.build(
        config(), java.util.Arrays.stream(instances).map(StandIns::facts).toList());
  }

  @Test
  void theFileSystemsTagsBecomeHostVariables() throws Exception {
    InventoryBuilder.Result r =
        build(
            node(1)
                .withTag(GpugenTags.LUSTRE_DNS_NAME, DNS)
                .withTag(GpugenTags.LUSTRE_MOUNT_NAME, "abcdef12"),
            node(2));
    assertEquals(List.of(), r.warnings());
    Map<String, String> vars = r.inventory().varsOf("node-1");
    assertEquals(DNS, vars.get("gpugen_lustre_dns_name"), vars.toString());
    assertEquals("abcdef12", vars.get("gpugen_lustre_mount_name"), vars.toString());
    // A node without the tags (no storage.lustre) gets neither variable.
    Map<String, String> plain = r.inventory().varsOf("node-2");
    assertFalse(plain.containsKey("gpugen_lustre_dns_name"), plain.toString());
    assertFalse(plain.containsKey("gpugen_lustre_mount_name"), plain.toString());
  }

  @Test
  void aValueThatIsNotADnsNameOrMountNameIsDroppedWithAWarning() throws Exception {
    InventoryBuilder.Result r =
        build(
            node(1)
                .withTag(GpugenTags.LUSTRE_DNS_NAME, DNS + " /etc lustre")
                .withTag(GpugenTags.LUSTRE_MOUNT_NAME, "fsx,remount"),
            node(2)
                .withTag(GpugenTags.LUSTRE_DNS_NAME, "{{ lookup('pipe','id') }}")
                .withTag(GpugenTags.LUSTRE_MOUNT_NAME, "a b"));
    for (String host : List.of("node-1", "node-2")) {
      Map<String, String> vars = r.inventory().varsOf(host);
      assertFalse(vars.containsKey("gpugen_lustre_dns_name"), host + ": " + vars);
      assertFalse(vars.containsKey("gpugen_lustre_mount_name"), host + ": " + vars);
    }
    assertEquals(4, r.warnings().size(), r.warnings().toString());
    assertTrue(
        r.warnings().get(0).contains("tag gpugen:lustre-dns-name of i-0c000000000000001"),
        r.warnings().toString());
  }
}

package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gpugen-inventory.json is one record, {@link InventoryFile}: what the render writes is what the
 * reader reads, field for field, and every committed render's file is that record's JSON.
 */
class InventoryFileTest {
  @TempDir Path tmp;

  @Test
  void whatTheRenderWritesTheReaderReadsBack() throws Exception {
    TreeMap<String, InventoryFile.Pool> pools = new TreeMap<>();
    pools.put("h100", new InventoryFile.Pool("p5.48xlarge", "580.95.05", "12.8", "1.17.8"));
    InventoryFile written =
        InventoryFile.rendered(
            "demo",
            Optional.of("prod"),
            "us-east-1",
            pools,
            "ssm",
            Optional.of("demo-prod-ssm-"),
            Optional.empty(),
            Optional.empty());
    Path file = tmp.resolve("gpugen-inventory.json");
    Files.writeString(file, Json.write(written.toJson()));
    InventoryConfig read =
        new InventoryConfigReader(Map.of("HOME", "/home/ops")).read(Optional.of(file));
    assertEquals("demo", read.cluster());
    assertEquals(Optional.of("prod"), read.environment());
    assertEquals(List.of("us-east-1"), read.regions());
    assertEquals(
        new PoolSoftware(
            Optional.of("p5.48xlarge"),
            Optional.of("580.95.05"),
            Optional.of("12.8"),
            Optional.of("1.17.8")),
        read.pools().get("h100"));
    assertEquals(HostnameSource.NAME_TAG_THEN_ID, read.hostnames());
    assertEquals(AnsibleHostSource.PRIVATE_IP, read.ansibleHost());
    assertEquals(List.of("running"), read.states());
    assertEquals(InventoryConfigReader.DEFAULT_CACHE_TTL_SECONDS, read.cacheTtlSeconds());
    assertEquals(
        new NodeConnection(
            "ssm", Optional.of("demo-prod-ssm-"), Optional.empty(), Optional.empty()),
        read.connection());
  }

  @Test
  void theJsonHoldsOnlyTheSetFieldsUnderTheRecordsNames() {
    Map<String, Object> json =
        InventoryFile.rendered(
                "demo",
                Optional.empty(),
                "us-east-1",
                new TreeMap<>(),
                "ssh",
                Optional.empty(),
                Optional.of("ec2-user@bastion.example.com"),
                Optional.of("ubuntu"))
            .toJson();
    assertTrue(InventoryFile.fields().containsAll(json.keySet()), json.keySet().toString());
    assertEquals(
        List.of(
            "ansibleHost",
            "cacheTtlSeconds",
            "cluster",
            "connection",
            "hostname",
            "pools",
            "proxyJump",
            "regions",
            "states",
            "user"),
        List.copyOf(json.keySet()));
  }

  /** Every committed render's file parses into the record's fields and pool fields only. */
  @Test
  void everyCommittedFileUsesTheContractsNames() throws Exception {
    List<Path> files;
    try (var s = Files.walk(Path.of("roles-generated"))) {
      files = s.filter(p -> p.getFileName().toString().equals("gpugen-inventory.json")).toList();
    }
    assertTrue(files.size() >= 3, "renders with an EC2 inventory: " + files);
    for (Path f : files) {
      Map<?, ?> m = (Map<?, ?>) Json.parse(Files.readAllBytes(f));
      assertTrue(InventoryFile.fields().containsAll(m.keySet()), f + ": " + m.keySet());
      for (Object pool : ((Map<?, ?>) m.get("pools")).values()) {
        assertTrue(
            InventoryFile.Pool.fields().containsAll(((Map<?, ?>) pool).keySet()), f.toString());
      }
    }
  }
}

package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.compat.Version;
import dev.gpugen.testing.RealToolsTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The version gate and the EFA interfaces as HashiCorp's parser reads them: the table data in
 * compatibility.tf is gpugen's compatibility table, versions become numbers by the one formula the
 * variables' validation makes order-preserving, and every pool's launch template carries the
 * preconditions and a check block. (What Terraform then decides was run with terraform test and a
 * mocked provider: see src/test/terraform/README.md.)
 */
@RealToolsTest
class TerraformGateTest {
  static final Rendered TWO_POOLS =
      Rendered.of(Rendered.GOLDEN.resolve("aws-two-pools-lustre/spec.yaml"));

  static JsonNode locals(Map<String, JsonNode> parsed, String file, String name) {
    for (JsonNode block : parsed.get(file).path("locals")) {
      if (block.has(name)) {
        return block.get(name);
      }
    }
    throw new AssertionError("no local." + name + " in " + file);
  }

  @Test
  void theTableDataIsTheCompatibilityTable() {
    Map<String, JsonNode> parsed = TWO_POOLS.parsed();
    CompatTable table = CompatTable.load();
    JsonNode types = locals(parsed, "compatibility.tf", "compat_instance_types");
    assertEquals(table.awsInstances().size(), types.size());
    for (AwsInstanceType t : table.awsInstances()) {
      assertEquals(t.gpu(), types.path(t.name()).path("gpu").asText(), t.name());
      assertEquals(
          t.efaInterfaces(), types.path(t.name()).path("efa_interfaces").asInt(), t.name());
    }
    for (String local :
        List.of("compat_gpu_min_driver", "compat_cuda_min_driver", "compat_cuda_mvc_floor")) {
      JsonNode floors = locals(parsed, "compatibility.tf", local);
      assertTrue(floors.size() > 2, local);
      floors
          .properties()
          .forEach(
              e -> {
                Version v = Version.parse(e.getValue().path("version").asText());
                List<Integer> parts = new ArrayList<>(v.parts());
                while (parts.size() < 3) {
                  parts.add(0);
                }
                // The HCL formula: sum(part[i] * 1000^(2 - i)).
                long key = parts.get(0) * 1_000_000L + parts.get(1) * 1_000L + parts.get(2);
                assertEquals(key, e.getValue().path("key").asLong(), local + "." + e.getKey());
              });
    }
    assertEquals(
        "570.26",
        locals(parsed, "compatibility.tf", "compat_cuda_min_driver")
            .path("12.8")
            .path("version")
            .asText());
    assertEquals(
        "525.60.13",
        locals(parsed, "compatibility.tf", "compat_cuda_mvc_floor")
            .path("12")
            .path("version")
            .asText());
  }

  @Test
  void versionsBecomeNumbersOnlyWhereTheValidationKeepsThemOrderPreserving() {
    Map<String, JsonNode> parsed = TWO_POOLS.parsed();
    String pools = locals(parsed, "compatibility.tf", "pools").asText().replaceAll("\\s+", " ");
    assertTrue(
        pools.contains(
            "driver_key = sum([for i, part in split(\".\", p.driver) : tonumber(part) * pow(1000, 2 - i)])"),
        pools);
    for (String pool : List.of("a100_ft", "h100_pretrain")) {
      JsonNode v =
          parsed.get("variables.tf").path("variable").path(pool + "_driver_version").path(0);
      // At most three parts of at most three digits: every part is below 1000.
      assertEquals(
          "${can(regex(\"^[0-9]{3}(\\\\.[0-9]{1,3}){1,2}$\", var." + pool + "_driver_version))}",
          v.path("validation").path(0).path("condition").asText());
    }
    assertTrue(
        !String.join("\n", TWO_POOLS.tf().values()).matches("(?s).*version\\w* *>=? *\".*"),
        "no comparison of version strings anywhere");
  }

  @Test
  void everyPoolIsGatedBeforeItsNodesLaunch() {
    Map<String, JsonNode> parsed = TWO_POOLS.parsed();
    for (String pool : List.of("a100_ft", "h100_pretrain")) {
      JsonNode lt =
          parsed
              .get("instances.tf")
              .path("resource")
              .path("aws_launch_template")
              .path(pool)
              .path(0);
      List<String> conditions = new ArrayList<>();
      lt.path("lifecycle")
          .path(0)
          .path("precondition")
          .forEach(p -> conditions.add(p.path("condition").asText()));
      assertEquals(
          List.of(
              "${local.version_gate[\"" + pool + "\"].efa_ok}",
              "${local.version_gate[\"" + pool + "\"].driver_runs_cuda}",
              "${local.version_gate[\"" + pool + "\"].driver_supports_gpu}"),
          conditions);
      JsonNode check =
          parsed.get("compatibility.tf").path("check").path(pool + "_versions").path(0);
      assertEquals(3, check.path("assert").size(), pool);
      // The instances take their interfaces from this template, and their own IMDS and disks.
      JsonNode instance =
          parsed.get("instances.tf").path("resource").path("aws_instance").path(pool).path(0);
      assertEquals(
          "${aws_launch_template." + pool + ".id}",
          instance.path("launch_template").path(0).path("id").asText());
      assertEquals("${var." + pool + "_count}", instance.path("count").asText());
    }
    String nics = locals(parsed, "instances.tf", "pool_network_interfaces").asText();
    // One interface per EFA card, plus card 0's ENA-only interface where card 0 has no EFA
    // (P6-B300); the primary ENA interface alone without EFA.
    assertTrue(
        nics.contains(
            "range(p.efa_interfaces == 0 ? 1 : p.efa_interfaces + (p.efa_card0 ? 0 : 1))"),
        nics);
    assertTrue(nics.contains("card == 0 ? (p.efa_card0 ? \"efa\" : null) : \"efa-only\""), nics);
    JsonNode content =
        parsed
            .get("instances.tf")
            .path("resource")
            .path("aws_launch_template")
            .path("a100_ft")
            .path(0)
            .path("dynamic")
            .path("network_interfaces")
            .path(0)
            .path("content")
            .path(0);
    assertEquals(
        "${network_interfaces.value.network_card_index}",
        content.path("network_card_index").asText());
    assertEquals(0, content.path("device_index").asInt());
  }
}

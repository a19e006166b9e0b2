package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.testing.RealToolsTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What decides how a node is launched, as HashiCorp's parser reads the render of the
 * aws-capacity-block golden (a P6-B300 pool in a Capacity Block, a P5 pool in a targeted On-Demand
 * Capacity Reservation): every network interface, the market, the reservation and the placement
 * group are the plan's values in terraform.tfvars.json, passed through var.pools to the pool
 * module, which only loops over them and branches on them. No HCL derives them again: the counted
 * layout's copy of the instance table and its version gate (compatibility.tf) are gone, the linter
 * refusing those specs before anything is rendered. (What Terraform then plans is
 * TerraformPlanTest's.)
 */
@RealToolsTest
class TerraformGateTest {
  static final Rendered RESERVED =
      Rendered.of(Rendered.GOLDEN.resolve("aws-capacity-block/spec.yaml"));

  private static ClusterPlan plan() {
    return dev.gpugen.TestSpecs.plan(RESERVED.spec());
  }

  private static JsonNode block(String file, String type, String name) {
    JsonNode b = RESERVED.parsed().get(file).path("resource").path(type).path(name).path(0);
    assertFalse(b.isMissingNode(), type + "." + name + " in " + file);
    return b;
  }

  private static JsonNode call() {
    return RESERVED.parsed().get("pools.tf").path("module").path("pool").path(0);
  }

  @Test
  void everyInterfaceIsThePlansAndTheLaunchTemplateOnlyLoopsOverThem() {
    // terraform.tfvars.json: per pool the plan's interfaces, card by card (ENA: no type).
    JsonNode pools = RESERVED.tfvars().path("pools");
    for (PoolPlan pp : plan().pools()) {
      List<List<Object>> want = new ArrayList<>();
      for (AwsInstanceType.NetworkInterface n : pp.networkInterfaces()) {
        want.add(List.of(n.card(), n.type().equals("interface") ? "null" : n.type()));
      }
      List<List<Object>> written = new ArrayList<>();
      pools
          .path(pp.name())
          .path("network_interfaces")
          .forEach(
              n ->
                  written.add(
                      List.of(
                          n.path("network_card_index").asInt(),
                          n.path("interface_type").isNull()
                              ? "null"
                              : n.path("interface_type").asText())));
      assertEquals(want, written, pp.name());
    }
    // P6-B300 (aws/aws-parallelcluster#7143): card 0 ENA only, efa-only on cards 1 to 16.
    JsonNode b300 = pools.path("b300").path("network_interfaces");
    assertEquals(17, b300.size());
    assertTrue(b300.path(0).path("interface_type").isNull(), b300.path(0).toString());
    assertEquals("efa-only", b300.path(16).path("interface_type").asText());
    assertEquals(
        "efa",
        pools.path("h100").path("network_interfaces").path(0).path("interface_type").asText());

    assertEquals("${var.pools}", call().path("for_each").asText());
    assertEquals("${each.value.network_interfaces}", call().path("network_interfaces").asText());
    JsonNode lt = block("modules/pool/main.tf", "aws_launch_template", "this");
    JsonNode nics = lt.path("dynamic").path("network_interfaces").path(0);
    assertEquals("${var.network_interfaces}", nics.path("for_each").asText());
    JsonNode content = nics.path("content").path(0);
    assertEquals(
        "${network_interfaces.value.network_card_index}",
        content.path("network_card_index").asText());
    assertEquals(
        "${network_interfaces.value.interface_type}", content.path("interface_type").asText());
    assertEquals(0, content.path("device_index").asInt());
    // Every node of a pool takes its interfaces from the pool's template, one per node key.
    JsonNode instance = block("modules/pool/main.tf", "aws_instance", "this");
    assertEquals("${var.nodes}", instance.path("for_each").asText());
    assertEquals(
        "${aws_launch_template.this.id}",
        instance.path("launch_template").path(0).path("id").asText());
  }

  @Test
  void theMarketReservationAndPlacementGroupAreThePlansAndOnlyBranchedOn() {
    JsonNode pools = RESERVED.tfvars().path("pools");
    for (PoolPlan pp : plan().pools()) {
      JsonNode p = pools.path(pp.name());
      assertEquals(pp.pool().market().spelling(), p.path("market").asText(), pp.name());
      assertEquals(
          pp.capacityReservationId().orElseThrow(),
          p.path("capacity_reservation_id").asText(),
          pp.name());
      // A reserved pool: the plan names no placement group, so tfvars has none.
      assertTrue(pp.placementGroup().isEmpty(), pp.name());
      assertFalse(p.has("placement_group"), pp.name());
    }
    assertEquals("capacity-block", pools.path("b300").path("market").asText());

    for (String arg : List.of("market", "capacity_reservation_id", "placement_group")) {
      assertEquals("${each.value." + arg + "}", call().path(arg).asText(), arg);
    }
    JsonNode instance = block("modules/pool/main.tf", "aws_instance", "this");
    // Two dynamic blocks: spot, and a Capacity Block; on-demand has none.
    List<String> markets = new ArrayList<>();
    instance
        .path("dynamic")
        .path("instance_market_options")
        .forEach(
            m ->
                markets.add(
                    m.path("for_each").asText()
                        + " -> "
                        + m.path("content").path(0).path("market_type").asText()));
    assertEquals(
        List.of(
            "${var.market == \"spot\" ? [\"spot\"] : []} -> spot",
            "${var.market == \"capacity-block\" ? [\"capacity-block\"] : []} -> capacity-block"),
        markets);
    JsonNode reservation = dynamic(instance, "capacity_reservation_specification");
    assertEquals(
        "${var.capacity_reservation_id == null ? [] : [var.capacity_reservation_id]}",
        reservation.path("for_each").asText());
    assertEquals(
        "${capacity_reservation_specification.value}",
        reservation
            .path("content")
            .path(0)
            .path("capacity_reservation_target")
            .path(0)
            .path("capacity_reservation_id")
            .asText());
    assertEquals(
        "${var.placement_group == null || var.placement_strategy == \"none\" ? 0 : 1}",
        block("modules/pool/main.tf", "aws_placement_group", "this").path("count").asText());
  }

  @Test
  void noTfFileDerivesWhatThePlanDerives() {
    Map<String, String> tf = RESERVED.tf();
    assertFalse(tf.containsKey("compatibility.tf"), tf.keySet().toString());
    for (Map.Entry<String, String> f : tf.entrySet()) {
      String text = f.getValue();
      // The counted layout's table of instance types and its per-card arithmetic.
      for (String derived :
          List.of("compat_", "efa_interfaces", "efa_card0", "network_cards", "range(")) {
        assertFalse(text.contains(derived), f.getKey() + " derives a plan fact: " + derived);
      }
      assertFalse(
          text.matches("(?s).*version\\w* *>=? *\".*"),
          f.getKey() + ": no comparison of version strings");
    }
  }

  /** The one dynamic block of {@code type} in a resource. */
  private static JsonNode dynamic(JsonNode resource, String type) {
    JsonNode found = resource.path("dynamic").path(type);
    assertEquals(1, found.size(), "dynamic " + type);
    return found.get(0);
  }
}

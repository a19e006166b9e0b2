package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpugen.TestSpecs;
import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Fabric;
import dev.gpugen.testing.Records;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The data TerraformView hands the templates: each pool's old label and node indices for the moved
 * blocks, and each pool's network interfaces in terraform.tfvars.json.
 */
class TerraformViewTest {
  @Test
  void eachPoolMovesFromItsLabelAndEachNodeFromItsIndex() throws Exception {
    ClusterPlan plan =
        TestSpecs.plan(
            TestSpecs.read(
                Path.of("src/test/resources/golden/aws-two-pools-lustre/spec.yaml"),
                Optional.empty()));
    List<TerraformView.Move> moves = new TerraformView(plan).moves();
    assertEquals(List.of("a100-ft", "h100-pretrain"), moves.stream().map(m -> m.name()).toList());
    assertEquals(
        List.of("a100_ft", "h100_pretrain"), moves.stream().map(m -> m.previous()).toList());
    for (TerraformView.Move m : moves) {
      int count = plan.pool(m.name()).pool().count();
      assertEquals(count, m.nodes().size(), m.name());
      for (int i = 0; i < count; i++) {
        assertEquals(new TerraformView.NodeMove(i, Integer.toString(i)), m.nodes().get(i));
      }
    }
  }

  /**
   * A pool's network_interfaces, as terraform.tfvars.json gives them to its launch template, for
   * every EC2 type of the instance table: with fabric efa one interface per network card, card 0
   * the primary (EFA with ENA, or ENA alone where card 0 has no EFA), every other card efa-only;
   * with tcp the primary ENA interface alone.
   */
  @Test
  void everyInstanceTypeGetsOneInterfacePerNetworkCardWithEfaWhereTheCardHasIt() throws Exception {
    ClusterSpec base =
        TestSpecs.read(
            Path.of("src/test/resources/golden/aws-single-node/spec.yaml"), Optional.empty());
    Map<String, List<String>> efaPools = new TreeMap<>();
    for (AwsInstanceType t : CompatTable.load().awsInstances()) {
      for (Fabric fabric : t.efa() ? List.of(Fabric.EFA, Fabric.TCP) : List.of(Fabric.TCP)) {
        ClusterSpec spec =
            Records.with(base, "pools[0].instanceType", t.name(), "pools[0].fabric", fabric);
        List<String> types = interfaceTypes(spec);
        List<String> want = new ArrayList<>();
        if (fabric == Fabric.EFA) {
          want.add(t.efaOnCard0() ? "efa" : null);
          for (int card = 1; card < t.networkCards(); card++) {
            want.add("efa-only");
          }
          efaPools.put(t.name(), types);
        } else {
          want.add(null);
        }
        assertEquals(want, types, t.name() + " with fabric " + fabric);
      }
    }
    // The EC2 network tables: P5 32 cards, EFA on each; P6-B300 17, card 0 ENA only
    // (aws/aws-parallelcluster#7143), EFA on cards 1-16.
    assertEquals(32, efaPools.get("p5.48xlarge").size());
    assertEquals("efa", efaPools.get("p5.48xlarge").get(0));
    List<String> b300 = new ArrayList<>(Arrays.asList((String) null));
    b300.addAll(Collections.nCopies(16, "efa-only"));
    assertEquals(b300, efaPools.get("p6-b300.48xlarge"));
  }

  /** The interface_type of each interface of the spec's first pool, in card order (null: ENA). */
  @SuppressWarnings("unchecked")
  private static List<String> interfaceTypes(ClusterSpec spec) {
    Map<String, Object> tfvars = new TerraformView(TestSpecs.plan(spec)).tfvars();
    Map<String, Object> pool =
        ((Map<String, Map<String, Object>>) tfvars.get("pools")).get(spec.pools().get(0).name());
    List<String> out = new ArrayList<>();
    int card = 0;
    for (Map<String, Object> nic : (List<Map<String, Object>>) pool.get("network_interfaces")) {
      assertEquals(card++, nic.get("network_card_index"), spec.pools().get(0).instanceType());
      out.add((String) nic.get("interface_type"));
    }
    return out;
  }
}

package dev.gpugen.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpugen.TestSpecs;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A pool's placement group keeps the name the previous render of its folder gave it while the
 * strategy stays: EC2 renames no group, so a new name is a new group and every node replaced.
 */
class PlacementGroupNameTest {
  private static final String SPEC =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: atlas, environment: prod}
      cloud: {provider: aws, region: us-east-1}
      network: {placement: spread}
      pools:
        - {name: gpu-a, instanceType: p5.48xlarge, count: 2}
      software: {driver: "580.95.05", cuda: "12.8"}
      """;

  private static ClusterPlan plan(String yaml) {
    return TestSpecs.plan(TestSpecs.parse(yaml));
  }

  private static Optional<String> group(ClusterPlan p) {
    return p.pool(p.pools().get(0).name()).placementGroup();
  }

  /** What this release records: the values and the accepted node settings. */
  private static SortedMap<String, String> recorded(ClusterPlan p) {
    SortedMap<String, String> v = new TreeMap<>(ChangeImpact.values(p));
    v.putAll(NodeSettings.record(NodeSettings.of(p)));
    return v;
  }

  /** What the release before recorded: the strategy and the pools, no accepted settings. */
  private static SortedMap<String, String> beforeStrategyNames(String placement) {
    SortedMap<String, String> v = new TreeMap<>();
    v.put("network.placement", placement);
    v.put("pools[gpu-a].count", "2");
    v.put("pools[gpu-a].instanceType", "p5.48xlarge");
    return v;
  }

  @Test
  void withoutAPreviousRenderTheNameCarriesTheStrategy() {
    ClusterPlan p = plan(SPEC);
    assertEquals(Optional.of("atlas-prod-gpu-a-spread"), group(p));
    assertEquals(
        Optional.of("atlas-prod-gpu-a-spread"), group(p.keepingPlacementGroups(new TreeMap<>())));
  }

  @Test
  void aRenderOfTheReleaseBeforeKeepsItsStrategylessName() {
    ClusterPlan kept = plan(SPEC).keepingPlacementGroups(beforeStrategyNames("spread"));
    assertEquals(Optional.of("atlas-prod-gpu-a"), group(kept));
    // Recorded for the next render, which keeps it again; a change report names no change.
    SortedMap<String, String> next = recorded(kept);
    assertEquals("atlas-prod-gpu-a", next.get("pools[gpu-a].placementGroup"));
    assertEquals(Optional.of("atlas-prod-gpu-a"), group(plan(SPEC).keepingPlacementGroups(next)));
    assertEquals(List.of(), ChangeImpact.between(next, plan(SPEC)));
    // And the node settings the guard compares carry the kept name.
    assertEquals("atlas-prod-gpu-a", NodeSettings.of(kept).get("gpu-a").get("placement_group"));
  }

  @Test
  void aNewStrategyIsANewGroup() {
    ClusterPlan spread = plan(SPEC);
    ClusterPlan fromCluster = spread.keepingPlacementGroups(beforeStrategyNames("cluster"));
    assertEquals(Optional.of("atlas-prod-gpu-a-spread"), group(fromCluster));
    ClusterPlan partition = plan(SPEC.replace("placement: spread", "placement: partition"));
    assertEquals(
        Optional.of("atlas-prod-gpu-a-partition"),
        group(partition.keepingPlacementGroups(recorded(spread))));
    ClusterPlan none = plan(SPEC.replace("placement: spread", "placement: none"));
    assertEquals(Optional.empty(), group(none.keepingPlacementGroups(recorded(spread))));
  }

  @Test
  void clusterAfterAStrategylessNameOfAnotherStrategyIsAGroupOfAnotherName() {
    // The release before named the spread group atlas-prod-gpu-a, the name cluster computes: a
    // group of that name would be created while the old one still holds the nodes (Duplicate),
    // and the nodes, their group name unchanged, would not move.
    ClusterPlan cluster = plan(SPEC.replace("placement: spread", "placement: cluster"));
    assertEquals(Optional.of("atlas-prod-gpu-a"), group(cluster));
    ClusterPlan fromSpread = cluster.keepingPlacementGroups(beforeStrategyNames("spread"));
    assertEquals(Optional.of("atlas-prod-gpu-a-cluster"), group(fromSpread));
    assertEquals(
        "atlas-prod-gpu-a-cluster",
        NodeSettings.of(fromSpread).get("gpu-a").get("placement_group"));
    // Kept by the next render under the same strategy; a later move away and back is plain.
    SortedMap<String, String> next = recorded(fromSpread);
    assertEquals(
        Optional.of("atlas-prod-gpu-a-cluster"), group(cluster.keepingPlacementGroups(next)));
    ClusterPlan spread = plan(SPEC);
    assertEquals(
        Optional.of("atlas-prod-gpu-a-spread"), group(spread.keepingPlacementGroups(next)));
    assertEquals(
        Optional.of("atlas-prod-gpu-a"),
        group(cluster.keepingPlacementGroups(recorded(spread.keepingPlacementGroups(next)))));
  }

  @Test
  void aPoolTheLastRenderDidNotGroupGetsTheNewName() {
    // This release's manifest without a name for the pool: it had none (a reservation, or a
    // pool added since), so no name to keep.
    SortedMap<String, String> previous = recorded(plan(SPEC));
    previous.remove("pools[gpu-a].placementGroup");
    assertEquals(
        Optional.of("atlas-prod-gpu-a-spread"), group(plan(SPEC).keepingPlacementGroups(previous)));
  }

  @Test
  void aRenamedPoolKeepsItsGroupsNameFromBeforeTheRename() {
    String renamed = SPEC.replace("{name: gpu-a,", "{name: gpu-b, renamedFrom: gpu-a,");
    assertEquals(
        Optional.of("atlas-prod-gpu-a"),
        group(plan(renamed).keepingPlacementGroups(beforeStrategyNames("spread"))));
    SortedMap<String, String> previous = recorded(plan(SPEC));
    previous.put("pools[gpu-a].placementGroup", "atlas-prod-gpu-a-kept");
    assertEquals(
        Optional.of("atlas-prod-gpu-a-kept"),
        group(plan(renamed).keepingPlacementGroups(previous)));
  }
}

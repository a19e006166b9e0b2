package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.TestSpecs;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The group_vars are one list: each {@link AnsibleVar} writes its all.yml line and its pool files'
 * lines, so the two cannot restate a variable differently. The rendered files themselves are held
 * by the goldens; what a role reads of them by {@code RenderedVariablesTest}.
 */
class AnsibleVarTest {
  private static ClusterPlan plan() throws Exception {
    return TestSpecs.plan(
        TestSpecs.read(Path.of("src/test/resources/golden/two-pool/spec.yaml"), Optional.empty()));
  }

  @Test
  void aVariableListedTwiceIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                AnsibleVar.checked(
                    List.of(
                        AnsibleVar.cluster("validation_x", p -> AnsibleVar.of("a")),
                        AnsibleVar.heading(),
                        AnsibleVar.pool("validation_x", (p, pp) -> AnsibleVar.of("b")))));
    assertEquals("group variable validation_x is listed twice", e.getMessage());
  }

  @Test
  void theListNamesEveryVariableOnce() {
    List<String> names = AnsibleVar.names(AnsibleVars.LIST);
    assertEquals(new TreeSet<>(names).size(), names.size(), names.toString());
    assertTrue(names.contains("nvidia_driver_version"), names.toString());
  }

  @Test
  void aPoolOverrideWithoutAClusterValueFailsTheRender() throws Exception {
    ClusterPlan plan = plan();
    PoolPlan pool = plan.pools().get(0);
    List<AnsibleVarItem> planted =
        AnsibleVar.checked(
            List.of(
                AnsibleVar.heading(),
                AnsibleVar.override(
                    "validation_x", p -> Optional.empty(), (p, pp) -> AnsibleVar.of("b"))));
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> AnsibleVar.poolFile(planted, plan, pool));
    assertEquals(
        "group variable validation_x is overridden for pool "
            + pool.pool().name()
            + " but has no cluster-wide value in all.yml",
        e.getMessage());
    // A pool-only variable is no override: nothing to refine, nothing refused.
    List<AnsibleVarItem> poolOnly =
        List.of(
            AnsibleVar.heading(), AnsibleVar.pool("validation_x", (p, pp) -> AnsibleVar.of("b")));
    assertEquals("\nvalidation_x: !unsafe \"b\"", AnsibleVar.poolFile(poolOnly, plan, pool));
  }

  @Test
  void headingsCommentsAndValuesAreWrittenAsTheFilesHaveThem() throws Exception {
    ClusterPlan plan = plan();
    Map<String, Object> map = new TreeMap<>(Map.of("b.c", "{{ x }}", "a", 2));
    List<AnsibleVarItem> items =
        AnsibleVar.checked(
            List.of(
                AnsibleVar.heading(),
                AnsibleVar.cluster("x_string", p -> AnsibleVar.of("it's \"{{ x }}\"", "why")),
                // Not written: its heading gives way to the next one.
                AnsibleVar.clusterHeading("never"),
                AnsibleVar.cluster("x_unset", p -> Optional.empty()),
                AnsibleVar.clusterHeading("00 banner"),
                AnsibleVar.cluster("x_map", p -> AnsibleVar.of(map)),
                AnsibleVar.cluster("x_empty", p -> AnsibleVar.of(Map.of())),
                AnsibleVar.cluster(
                    "x_list", p -> AnsibleVar.of(List.of(Map.of("key", "k")), "a", "b")),
                AnsibleVar.cluster("x_jinja", p -> AnsibleVar.of(AnsibleVar.jinja("{{ y }}"))),
                AnsibleVar.cluster(
                    "x_number", p -> AnsibleVar.of(new AnsibleVar.Raw(AnsibleVar.number(2.0)))),
                AnsibleVar.cluster("x_null", p -> AnsibleVar.of((Object) null)),
                AnsibleVar.poolHeading("pool only"),
                AnsibleVar.cluster("x_bool", p -> AnsibleVar.of(true))));
    assertEquals(
        """

        # why
        x_string: !unsafe "it's \\"{{ x }}\\""

        # 00 banner
        x_map:
          "a": 2
          "b.c": !unsafe "{{ x }}"
        x_empty: {}
        # a
        # b
        x_list:
          - key: !unsafe "k"
        x_jinja: "{{ y }}"
        x_number: 2
        x_null: null
        x_bool: true""",
        AnsibleVar.clusterFile(items, plan));
  }

  /**
   * No dead entry: every variable of the list is written by some golden render, in all.yml or a
   * pool's file, and every override has both sides somewhere. The mirror variables are left out:
   * each is written only where its mirror is set and its source used, which the goldens do not all
   * combine ({@link MirrorVars#of} decides it).
   */
  @Test
  void everyVariableIsWrittenBySomeGolden() throws Exception {
    Set<String> cluster = new TreeSet<>();
    Set<String> pool = new TreeSet<>();
    try (Stream<Path> dirs = Files.list(Path.of("src/test/resources/golden"))) {
      for (Path d : dirs.sorted().toList()) {
        ClusterPlan plan = TestSpecs.plan(TestSpecs.read(d.resolve("spec.yaml"), Optional.empty()));
        for (AnsibleVarItem i : AnsibleVars.LIST) {
          if (i instanceof AnsibleVar v) {
            if (v.cluster().apply(plan).isPresent()) {
              cluster.add(v.name());
            }
            for (PoolPlan pp : plan.pools()) {
              if (v.pool().apply(plan, pp).isPresent()) {
                pool.add(v.name());
              }
            }
          }
        }
      }
    }
    for (AnsibleVarItem i : AnsibleVars.LIST) {
      if (i instanceof AnsibleVar v && !MirrorVars.NAMES.contains(v.name())) {
        assertTrue(
            cluster.contains(v.name()) || pool.contains(v.name()), v.name() + " is never written");
        if (v.override()) {
          assertTrue(
              cluster.contains(v.name()) && pool.contains(v.name()),
              v.name() + " is an override but never written on both sides");
        }
      }
    }
  }
}

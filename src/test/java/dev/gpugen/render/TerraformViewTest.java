package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpugen.TestSpecs;
import dev.gpugen.plan.ClusterPlan;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The data TerraformView hands the moved blocks: each pool's old label and node indices. */
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
}

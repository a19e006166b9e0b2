package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpugen.Gpugen;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.render.RenderedTree;
import dev.gpugen.render.Templates;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The templates a render gets from the warm-up thread are the built-in ones, render the same bytes
 * as templates loaded on the main thread, and are parsed once per process where there is a core to
 * do it on.
 */
class WarmupTest {
  @Test
  void theWarmedTemplatesRenderWhatFreshlyLoadedOnesRender() throws Exception {
    Warmup.start(new String[] {"render", "examples/aws-mixed/cluster.yaml"});
    Templates warmed = Warmup.builtInTemplates();
    Templates fresh = Templates.load(Optional.empty());
    assertEquals(fresh.names(), warmed.names());

    Gpugen gpugen = Knowledge.gpugen();
    ClusterPlan plan =
        gpugen
            .check(Path.of("examples/aws-mixed/cluster.yaml"), "spec", Optional.empty(), Set.of())
            .plan()
            .orElseThrow();
    RenderedTree a = gpugen.render(plan, warmed, "spec");
    RenderedTree b = gpugen.render(plan, fresh, "spec");
    assertEquals(b.files().keySet(), a.files().keySet());
    b.files()
        .forEach((path, f) -> assertArrayEquals(f.content(), a.files().get(path).content(), path));
  }

  @Test
  void aSecondRenderInTheProcessReusesTheParsedTemplatesWhereThereIsASecondCore() {
    Warmup.start(new String[] {"render"});
    Templates first = Warmup.builtInTemplates();
    Warmup.start(new String[] {"up"});
    Templates second = Warmup.builtInTemplates();
    assertEquals(Runtime.getRuntime().availableProcessors() >= 2, first == second);
  }
}

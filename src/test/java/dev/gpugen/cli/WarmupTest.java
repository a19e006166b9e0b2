package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Gpugen;
import dev.gpugen.failure.InternalFailure;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.render.RenderedTree;
import dev.gpugen.render.Templates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The templates a render gets from the warm-up thread are the built-in ones and render the same
 * bytes as templates loaded on the main thread, for every example; they are parsed once per process
 * where there is a second core; and parsing them ahead does not hide a template's syntax error.
 */
class WarmupTest {
  @TempDir Path tmp;

  @Test
  void theWarmedTemplatesRenderEveryExampleAsFreshlyLoadedOnesDo() throws Exception {
    Warmup.start(new String[] {"render"});
    Templates warmed = Warmup.builtInTemplates();
    Templates fresh = Templates.load(Optional.empty());
    assertEquals(fresh.names(), warmed.names());
    List<Path> specs;
    try (Stream<Path> s = Files.list(Path.of("examples"))) {
      specs = s.map(d -> d.resolve("cluster.yaml")).filter(Files::isRegularFile).sorted().toList();
    }
    assertTrue(specs.size() >= 4, "the examples: " + specs);
    Gpugen gpugen = Knowledge.gpugen();
    for (Path spec : specs) {
      ClusterPlan plan =
          gpugen.check(spec, "spec", Optional.empty(), Set.of()).plan().orElseThrow();
      RenderedTree a = gpugen.render(plan, warmed, "spec");
      RenderedTree b = gpugen.render(plan, fresh, "spec");
      assertEquals(b.files().keySet(), a.files().keySet(), spec.toString());
      b.files()
          .forEach(
              (path, f) ->
                  assertArrayEquals(
                      f.content(), a.files().get(path).content(), spec + ": " + path));
    }
  }

  /** The same instance only when the warm-up made it: a failed warm-up loads afresh each time. */
  @Test
  void aSecondRenderInTheProcessReusesTheParsedTemplatesWhereThereIsASecondCore() {
    Warmup.start(new String[] {"render"});
    Templates first = Warmup.builtInTemplates();
    Warmup.start(new String[] {"up"});
    Templates second = Warmup.builtInTemplates();
    assertEquals(Runtime.getRuntime().availableProcessors() >= 2, first == second);
  }

  /**
   * FreeMarker caches a failed parse and answers the next request with "an error on an earlier
   * attempt": parsing ahead must leave the render the syntax error itself, with its line.
   */
  @Test
  void aTemplateThatDoesNotParseIsReportedWithItsSyntaxErrorAfterParsingAhead() throws Exception {
    assertTheSyntaxErrorIsReported(Templates.load(Optional.of(brokenOverride())).parsed());
  }

  /** An override folder whose group_vars/all.yml template does not parse (line 2). */
  private Path brokenOverride() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("t/ansible/group_vars"));
    Files.writeString(dir.resolve("all.yml.ftl"), "[=header]\n<#if spec.metadata.name>\n");
    return tmp.resolve("t");
  }

  /** Rendering the example with {@code broken} reports the syntax error and its line. */
  private static void assertTheSyntaxErrorIsReported(Templates broken) throws Exception {
    Gpugen gpugen = Knowledge.gpugen();
    ClusterPlan plan =
        gpugen
            .check(Path.of("examples/aws-h100/cluster.yaml"), "spec", Optional.empty(), Set.of())
            .plan()
            .orElseThrow();
    InternalFailure e =
        assertThrows(InternalFailure.class, () -> gpugen.render(plan, broken, "spec"));
    assertTrue(e.getMessage().contains("Syntax error"), e.getMessage());
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
  }

  /**
   * Two threads sharing the parse, as the warm-up and the main thread do: whichever takes the
   * broken template, the render after both reports its syntax error and line, never FreeMarker's
   * "error on an earlier attempt".
   */
  @Test
  void twoThreadsSharingTheParseLeaveTheSyntaxErrorAndTheOtherTemplatesIntact() throws Exception {
    Path override = brokenOverride();
    for (int round = 0; round < 20; round++) {
      Templates broken = Templates.load(Optional.of(override));
      java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
      java.util.concurrent.CompletableFuture<Templates> other =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> {
                try {
                  start.await();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
                return broken.parsed();
              });
      start.await();
      broken.parsed();
      other.get();
      assertTheSyntaxErrorIsReported(broken);
    }
  }
}

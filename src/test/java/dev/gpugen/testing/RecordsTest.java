package dev.gpugen.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.TestSpecs;
import dev.gpugen.spec.ClusterSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Tests edit spec records by path, never by rebuilding them positionally. */
class RecordsTest {
  static final ClusterSpec SPEC =
      TestSpecs.parse(
          """
          apiVersion: gpugen/v1
          kind: GpuCluster
          metadata: {name: demo}
          cloud: {provider: aws, region: us-west-2}
          pools: [{name: a, instanceType: p4d.24xlarge}, {name: b, instanceType: p5.48xlarge}]
          software: {driver: "570.195.03", cuda: "12.8"}
          """);

  @Test
  void aPathReplacesOneComponentAndKeepsEveryOther() {
    ClusterSpec s =
        Records.with(SPEC, "pools[1].rootVolume.sizeGiB", 500, "metadata.environment", "prod");
    assertEquals(500, s.pools().get(1).rootVolume().sizeGiB());
    assertEquals(Optional.of("prod"), s.metadata().environment(), "a bare value is wrapped");
    assertEquals(SPEC.pools().get(0), s.pools().get(0));
    assertEquals(SPEC.pools().get(1).rootVolume().type(), s.pools().get(1).rootVolume().type());
    assertEquals(SPEC.cloud(), s.cloud());
    assertEquals(
        SPEC, Records.with(s, "pools[1]", SPEC.pools().get(1), "metadata", SPEC.metadata()));
  }

  @Test
  void aWrongPathOrTypeFailsLoudly() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> Records.with(SPEC, "metadata.nmae", "x"));
    assertTrue(e.getMessage().contains("has no nmae; it has [name, environment]"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Records.with(SPEC, "metadata.name", 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> Records.with(SPEC, "storage.lustre.mountPoint", "/x"));
    assertThrows(IllegalArgumentException.class, () -> Records.with(SPEC, "metadata.name"));
  }

  /** Adding a component to a spec record must not touch test call sites: none builds one. */
  @Test
  void noTestBuildsASpecRecordPositionally() throws IOException {
    List<String> offenders;
    try (Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
      offenders =
          files
              .filter(p -> p.toString().endsWith(".java"))
              .filter(p -> !p.getFileName().toString().equals("RecordsTest.java"))
              .filter(
                  p -> {
                    try {
                      return Files.readString(p)
                          .matches("(?s).*new ClusterSpec(\\.[A-Z]\\w*)?\\(.*");
                    } catch (IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  })
              .map(Path::toString)
              .toList();
    }
    assertEquals(List.of(), offenders, "use Records.with on a spec the reader built");
  }
}

package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A spec word bound to a {@link Keyword} enum is compared as the enum, never as text: {@code
 * spec.cloud().provider().equals("aws")} still compiles (Object.equals) but is always false once
 * {@code provider()} is a {@link Provider}. This scans the sources for such comparisons on every
 * accessor of the spec and the plan that returns a Keyword enum.
 */
class SpecWordComparisonTest {
  private static final List<Path> ROOTS =
      List.of(Path.of("src/main/java/dev/gpugen"), Path.of("src/test/java/dev/gpugen"));

  /** The accessors of the spec's records and the plan that return a Keyword enum. */
  static Set<String> keywordAccessors() {
    Set<String> out = new TreeSet<>();
    List<Class<?>> types = new ArrayList<>(List.of(ClusterSpec.class, ClusterPlan.class));
    types.add(PoolPlan.class);
    types.addAll(List.of(ClusterSpec.class.getDeclaredClasses()));
    for (Class<?> type : types) {
      for (Method m : type.getDeclaredMethods()) {
        if (Modifier.isPublic(m.getModifiers())
            && m.getParameterCount() == 0
            && keyword(m.getGenericReturnType())) {
          out.add(m.getName());
        }
      }
    }
    return out;
  }

  /** A Keyword enum, or an Optional or List of one. */
  private static boolean keyword(Type type) {
    if (type instanceof ParameterizedType p) {
      return p.getActualTypeArguments().length == 1 && keyword(p.getActualTypeArguments()[0]);
    }
    return type instanceof Class<?> c && c.isEnum() && Keyword.class.isAssignableFrom(c);
  }

  /**
   * The text comparisons in {@code text} on one of {@code accessors}, as {@code file:line: code}.
   */
  static List<String> offenders(String file, String text, Set<String> accessors) {
    String acc = "\\b(?:" + String.join("|", accessors) + ")\\(\\)";
    List<Pattern> patterns =
        List.of(
            // x.provider().equals("aws"), also split over lines and equalsIgnoreCase
            Pattern.compile(acc + "\\s*\\.\\s*equals(?:IgnoreCase)?\\(\\s*\""),
            // "aws".equals(x.provider())
            Pattern.compile(
                "\"\\s*\\.\\s*equals(?:IgnoreCase)?\\(\\s*[\\w.()\\s]*" + acc + "\\s*\\)"),
            // Objects.equals(x.provider(), "aws") and Objects.equals("aws", x.provider())
            Pattern.compile("Objects\\.equals\\(\\s*[\\w.()\\s]*" + acc + "\\s*,\\s*\""),
            Pattern.compile("Objects\\.equals\\(\\s*\"[^\"]*\"\\s*,\\s*[\\w.()\\s]*" + acc));
    List<String> out = new ArrayList<>();
    for (Pattern p : patterns) {
      Matcher m = p.matcher(text);
      while (m.find()) {
        int line = (int) text.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
        String code = text.split("\n", -1)[line - 1].strip();
        // A comment may show the mistake.
        if (!code.startsWith("//") && !code.startsWith("*") && !code.startsWith("/*")) {
          out.add(file + ":" + line + ": " + code);
        }
      }
    }
    return out;
  }

  @Test
  void noSpecWordIsComparedAsText() throws IOException {
    Set<String> accessors = keywordAccessors();
    List<String> found = new ArrayList<>();
    for (Path root : ROOTS) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
          found.addAll(offenders(f.toString(), Files.readString(f), accessors));
        }
      }
    }
    assertEquals(
        List.of(),
        found,
        "compare a spec word as its enum (provider() == Provider.AWS), not as text: "
            + "Object.equals against a String is always false");
  }

  @Test
  void theAccessorsAreFoundByType() {
    Set<String> accessors = keywordAccessors();
    for (String a :
        List.of(
            "provider",
            "fabric",
            "internet",
            "placement",
            "mode",
            "method",
            "distribution",
            "cni",
            "endpointAccess",
            "market")) {
      assertTrue(accessors.contains(a), a + " in " + accessors);
    }
  }

  @Test
  void theScanCatchesEachFormOfTextComparison() {
    Set<String> accessors = keywordAccessors();
    // Written with ' for " so that this file does not plant them in itself.
    String planted =
        String.join(
                "\n",
                "class X {",
                "  boolean a = spec.cloud().provider().equals('aws');",
                "  boolean b = 'efa'.equals(pool.fabric());",
                "  boolean c = java.util.Objects.equals(spec.ansible().mode(), 'pull');",
                "  boolean d = spec.network()",
                "      .internet()",
                "      .equals('none');",
                "  boolean e = Objects.equals('ssm', spec.connection().method());",
                "  boolean ok = spec.cloud().region().equals('us-east-1')",
                "      && spec.cloud().provider() == Provider.AWS;",
                "}")
            .replace('\'', '"');
    List<String> found = offenders("X.java", planted, accessors);
    assertEquals(
        Stream.of(
                "X.java:2: boolean a = spec.cloud().provider().equals('aws');",
                "X.java:6: .internet()",
                "X.java:3: boolean b = 'efa'.equals(pool.fabric());",
                "X.java:4: boolean c = java.util.Objects.equals(spec.ansible().mode(), 'pull');",
                "X.java:8: boolean e = Objects.equals('ssm', spec.connection().method());")
            .map(l -> l.replace('\'', '"'))
            .toList(),
        found);
  }

  @Test
  void everyKeywordIsWrittenAsItsSpelling() {
    for (Class<?> c :
        List.of(
            Provider.class,
            Fabric.class,
            Internet.class,
            Placement.class,
            AnsibleMode.class,
            ConnectionMethod.class,
            Distribution.class,
            Cni.class,
            EndpointAccess.class,
            GpuDriver.class,
            HttpTokens.class,
            PullSource.class,
            KernelModules.class,
            Market.class)) {
      for (Object k : c.getEnumConstants()) {
        assertEquals(((Keyword) k).spelling(), k.toString(), c.getSimpleName());
      }
    }
  }
}

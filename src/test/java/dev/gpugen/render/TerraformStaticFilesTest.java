package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.spec.Provider;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The .tf files are static: every golden and example render of a provider has the same .tf files
 * with the same bytes (after the generated-file header, which names the spec), so the spec reaches
 * Terraform only through terraform.tfvars.json. The exceptions hold declarations only: moved.tf and
 * gke-moved.tf (moved blocks cannot loop over the pools) and backend.tf (a backend block takes no
 * variables; only specs with terraform.backend.s3 have it).
 */
class TerraformStaticFilesTest {
  static final Set<String> PER_SPEC = Set.of("moved.tf", "gke-moved.tf", "backend.tf");

  @Test
  void everyTfFileIsTheSameForEverySpecOfAProvider() throws IOException {
    Map<Provider, Map<String, SortedMap<String, String>>> byProvider = new TreeMap<>();
    for (TerraformCases.Case c : TerraformCases.all()) {
      Provider p = c.read().cloud().provider();
      if (p != Provider.STATIC) {
        byProvider.computeIfAbsent(p, k -> new TreeMap<>()).put(c.label(), c.terraform());
      }
    }
    assertTrue(
        byProvider.getOrDefault(Provider.AWS, Map.of()).size() >= 15
            && byProvider.getOrDefault(Provider.GCP, Map.of()).size() >= 2,
        "AWS and GKE renders: " + byProvider.keySet());
    byProvider.forEach((p, renders) -> assertEquals(List.of(), differences(renders), p + ""));
  }

  /** A render that differs from the others in one .tf file, or lacks one, is reported. */
  @Test
  void aSpecDependentFileIsFound() {
    SortedMap<String, String> a = new TreeMap<>(Map.of("a.tf", "# h a\nx = 1\n", "moved.tf", "1"));
    SortedMap<String, String> b = new TreeMap<>(Map.of("a.tf", "# h b\nx = 2\n", "moved.tf", "2"));
    SortedMap<String, String> c = new TreeMap<>(Map.of("moved.tf", "3"));
    assertEquals(
        List.of("spec three has no a.tf", "a.tf: spec two differs from spec one"),
        differences(new TreeMap<>(Map.of("one", a, "two", b, "three", c))));
    assertEquals(
        List.of(),
        differences(
            new TreeMap<>(Map.of("one", a, "two", new TreeMap<>(Map.of("a.tf", "# x\nx = 1\n"))))));
  }

  /** What differs between renders: per .tf file, the text below its header line. */
  static List<String> differences(Map<String, SortedMap<String, String>> renders) {
    Map<String, String> first = new TreeMap<>();
    Map<String, String> firstLabel = new TreeMap<>();
    Set<String> names = new TreeSet<>();
    renders.values().forEach(r -> names.addAll(tf(r).keySet()));
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, SortedMap<String, String>> e : renders.entrySet()) {
      Map<String, String> files = tf(e.getValue());
      for (String name : names) {
        if (!files.containsKey(name)) {
          out.add("spec " + e.getKey() + " has no " + name);
          continue;
        }
        String body = files.get(name).substring(files.get(name).indexOf('\n') + 1);
        if (!first.containsKey(name)) {
          first.put(name, body);
          firstLabel.put(name, e.getKey());
        } else if (!first.get(name).equals(body)) {
          out.add(name + ": spec " + e.getKey() + " differs from spec " + firstLabel.get(name));
        }
      }
    }
    return out;
  }

  private static Map<String, String> tf(SortedMap<String, String> files) {
    Map<String, String> out = new TreeMap<>(files);
    out.keySet().removeIf(n -> !n.endsWith(".tf") || PER_SPEC.contains(n));
    return out;
  }
}

package dev.gpugen.spec.yaml;

import java.util.Collection;
import java.util.Map;

/** "Did you mean …?" by edit distance, as compilers do for misspelled names. */
public final class Suggest {
  private Suggest() {}

  /**
   * The words other tools use for a gpugen key, which no edit distance finds: GCP and gcloud say
   * zone and machine type where gpugen, for every provider, says availabilityZone and instanceType.
   */
  private static final Map<String, String> SYNONYMS =
      Map.of(
          "zone", "availabilityZone",
          "availability_zone", "availabilityZone",
          "az", "availabilityZone",
          "machineType", "instanceType",
          "machine_type", "instanceType",
          "instance_type", "instanceType");

  /** The closest candidate within a distance that still looks like a typo, else null. */
  public static String closest(String word, Collection<String> candidates) {
    String synonym = SYNONYMS.get(word);
    if (synonym != null && candidates.contains(synonym)) {
      return synonym;
    }
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d =
          distance(word.toLowerCase(java.util.Locale.ROOT), c.toLowerCase(java.util.Locale.ROOT));
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    int allowed = Math.max(2, word.length() / 3);
    return bestDistance <= allowed ? best : null;
  }

  public static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}

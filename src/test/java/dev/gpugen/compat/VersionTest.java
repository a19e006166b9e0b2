package dev.gpugen.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.failure.InvalidInput;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class VersionTest {

  /** Real versions from the domain facts, written down in ascending order by hand. */
  private static final List<String> ASCENDING =
      List.of(
          "410.48",
          "418.39",
          "450.80.02",
          "520.61.05",
          "525.60.13",
          "525.85.12",
          "525.105.17",
          "535.54.03",
          "535.86.09",
          "535.104.05",
          "535.247.01",
          "535.261.03",
          "535.309.01",
          "550.54.14",
          "550.54.15",
          "550.90.07",
          "550.127.05",
          "550.163.01",
          "570.26",
          "570.86.15",
          "570.124.06",
          "570.133.20",
          "570.172.08",
          "580.65.06",
          "580.82.07",
          "580.95.05",
          "580.105.08",
          "580.126.20",
          "595.91.07",
          "610.43.02");

  private static final List<String> CUDA_ASCENDING =
      List.of(
          "11.8", "12.0", "12.0u1", "12.1", "12.2", "12.2u1", "12.2u2", "12.6u3", "12.8", "12.8u1",
          "12.9", "12.10", "13.0", "13.0u2", "13.1");

  @Test
  void toStringReturnsTheTextAsWritten() {
    for (String text : List.of("580.95.05", "570.26", "12.8", "12.8u1", "v25.3.0", "1.17.8")) {
      assertEquals(text, Version.parse(text).toString());
    }
  }

  @Test
  void partsMajorMinorAndBranch() {
    Version driver = Version.parse("580.95.05");
    assertEquals(List.of(580, 95, 5), driver.parts());
    assertEquals(580, driver.major());
    assertEquals(95, driver.minor());
    assertEquals("R580", driver.branch());

    Version update = Version.parse("12.8u1");
    assertEquals(List.of(12, 8, 1), update.parts());
    assertEquals(12, update.major());
    assertEquals(8, update.minor());

    Version tag = Version.parse("v25.3.0");
    assertEquals(List.of(25, 3, 0), tag.parts());
    assertEquals(0, Version.parse("580").minor());
  }

  @ParameterizedTest(name = "{0} < {1}")
  @CsvSource({
    "535.54.03, 535.104.05",
    "12.9, 12.10",
    "12.8, 12.8u1",
    "12.8u1, 12.9",
    "570.26, 570.124.06",
    "580.65.06, 580.95.05",
    "v25.3.4, v25.10.0",
    "1.17.8, 1.18.0",
    "550.9, 550.54",
    "99.0, 100.0"
  })
  void comparesPartByPartAsNumbers(String older, String newer) {
    Version a = Version.parse(older);
    Version b = Version.parse(newer);
    assertTrue(a.compareTo(b) < 0, older + " should sort before " + newer);
    assertTrue(b.compareTo(a) > 0, newer + " should sort after " + older);
    assertTrue(a.isBefore(b));
    assertTrue(b.isAtLeast(a));
    assertFalse(a.isAtLeast(b));
  }

  @ParameterizedTest(name = "{0} == {1}")
  @CsvSource({
    "12.8, 12.8.0",
    "12.8u1, 12.8.1",
    "v25.3.0, 25.3.0",
    "580.95.05, 580.95.5",
    "13, 13.0"
  })
  void missingPartsAreZeroAndEqualVersionsHashAlike(String left, String right) {
    Version a = Version.parse(left);
    Version b = Version.parse(right);
    assertEquals(0, a.compareTo(b));
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertTrue(a.isAtLeast(b) && b.isAtLeast(a));
    // Equal, but each keeps its own spelling.
    assertEquals(left, a.toString());
    assertEquals(right, b.toString());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "v",
        "12.x",
        "12..8",
        "12.",
        ".12",
        " 12.8",
        "12.8 ",
        "12.8-rc1",
        "R580",
        "-1",
        "12u1",
        "12.8.1u1",
        "12.8u",
        "12.8u1u2",
        "1234567890.1",
        "580.95.05a",
        "12.\u0668",
        "12.+8"
      })
  void rejectsTextThatIsNotAVersionWithAClearMessage(String text) {
    InvalidInput e = assertThrows(InvalidInput.class, () -> Version.parse(text));
    assertTrue(
        e.getMessage().startsWith("not a version: \"" + text + "\": "), () -> e.getMessage());
    assertTrue(e.getMessage().length() > ("not a version: \"" + text + "\": ").length());
  }

  @Test
  void updateSuffixMessageSaysWhatIsExpected() {
    InvalidInput e = assertThrows(InvalidInput.class, () -> Version.parse("12u1"));
    assertTrue(e.getMessage().contains("major.minor"), e.getMessage());
  }

  @Test
  void sortingShuffledRealVersionsRestoresTheHandWrittenOrder() {
    for (List<String> expected : List.of(ASCENDING, CUDA_ASCENDING)) {
      Random random = new Random(42);
      for (int round = 0; round < 50; round++) {
        List<Version> shuffled = new ArrayList<>(expected.stream().map(Version::parse).toList());
        Collections.shuffle(shuffled, random);
        Collections.sort(shuffled);
        assertEquals(expected, shuffled.stream().map(Version::toString).toList());
      }
    }
  }

  @Test
  void stringOrderIsWrongForTheseVersionsWhichIsWhyVersionExists() {
    List<String> asText = new ArrayList<>(ASCENDING);
    Collections.sort(asText);
    assertNotEquals(ASCENDING, asText);
  }

  @Test
  void comparisonIsAntisymmetricTransitiveAndConsistentWithEquals() {
    List<Version> all = allRealVersions();
    for (Version a : all) {
      assertEquals(0, a.compareTo(a));
      for (Version b : all) {
        int ab = Integer.signum(a.compareTo(b));
        assertEquals(-ab, Integer.signum(b.compareTo(a)), a + " vs " + b);
        assertEquals(ab == 0, a.equals(b), a + " equals " + b);
        if (ab == 0) {
          assertEquals(a.hashCode(), b.hashCode(), a + " hash " + b);
        }
        for (Version c : all) {
          if (a.compareTo(b) <= 0 && b.compareTo(c) <= 0) {
            assertTrue(a.compareTo(c) <= 0, a + " <= " + b + " <= " + c);
          }
        }
      }
    }
  }

  @Test
  void sortedRealVersionsAreNonDecreasingPairwise() {
    List<Version> sorted = new ArrayList<>(allRealVersions());
    Collections.shuffle(sorted, new Random(7));
    sorted.sort(Comparator.naturalOrder());
    for (int i = 0; i < sorted.size(); i++) {
      for (int j = i + 1; j < sorted.size(); j++) {
        assertTrue(
            sorted.get(i).compareTo(sorted.get(j)) <= 0, sorted.get(i) + " > " + sorted.get(j));
      }
    }
  }

  /** Every version in the shipped table plus the hand-written lists: well over a hundred. */
  private static List<Version> allRealVersions() {
    CompatTable table = CompatTable.load();
    List<Version> all = new ArrayList<>();
    Stream.concat(ASCENDING.stream(), CUDA_ASCENDING.stream())
        .map(Version::parse)
        .forEach(all::add);
    for (CudaRelease r : table.cudaReleases()) {
      all.add(r.version());
      all.add(r.minDriver());
    }
    for (GpuOperatorRelease r : table.gpuOperators()) {
      all.add(r.version());
      all.add(r.driver());
      all.addAll(r.alsoDrivers());
      all.add(r.containerToolkit());
      all.add(r.devicePlugin());
    }
    table.containerToolkitReleases().forEach(r -> all.add(r.version()));
    assertTrue(all.size() > 100, "property checks need a real spread of versions");
    return all;
  }
}

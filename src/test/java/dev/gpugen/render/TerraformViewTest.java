package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.compat.CudaRelease;
import dev.gpugen.compat.GpuModel;
import dev.gpugen.compat.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The data TerraformView hands the templates: version keys and the compatibility lookups. */
class TerraformViewTest {
  static final CompatTable TABLE = CompatTable.load();

  static TerraformView.Compat compat() {
    return TerraformView.compat(TABLE);
  }

  @Test
  void versionKeysOrderExactlyLikeVersions() {
    List<Version> all = new ArrayList<>();
    TABLE.cudaReleases().forEach(r -> all.add(r.minDriver()));
    TABLE.gpus().forEach(g -> g.minDriver().ifPresent(all::add));
    TABLE.gpuOperators().forEach(o -> all.add(o.driver()));
    for (String s :
        List.of(
            "535.54.03",
            "535.104.05",
            "550.9",
            "550.54",
            "570.26",
            "570.26.0",
            "999.999.999",
            "100.0.0")) {
      all.add(Version.parse(s));
    }
    for (Version a : all) {
      for (Version b : all) {
        assertEquals(
            Integer.signum(a.compareTo(b)),
            Long.signum(TerraformView.versionKey(a) - TerraformView.versionKey(b)),
            a + " vs " + b);
      }
    }
    assertEquals(580_095_005L, TerraformView.versionKey(Version.parse("580.95.05")));
    assertEquals(570_026_000L, TerraformView.versionKey(Version.parse("570.26")));
  }

  @Test
  void versionsTheKeyCannotOrderAreRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> TerraformView.versionKey(Version.parse("1.2.3.4")));
    assertThrows(
        IllegalArgumentException.class,
        () -> TerraformView.versionKey(Version.parse("580.1000.1")));
  }

  @Test
  void instanceTypesCarryOneEfaInterfacePerNetworkCardThatHasEfa() {
    Map<String, TerraformView.InstanceFacts> facts = new TreeMap<>();
    compat().instanceTypes().forEach(r -> facts.put(r.key(), r.value()));
    // The EC2 network tables: one EFA interface per network card.
    assertEquals(4, facts.get("p4d.24xlarge").efaInterfaces());
    assertEquals(4, facts.get("p4de.24xlarge").efaInterfaces());
    assertEquals(32, facts.get("p5.48xlarge").efaInterfaces());
    assertEquals(32, facts.get("p5e.48xlarge").efaInterfaces());
    assertEquals(16, facts.get("p5en.48xlarge").efaInterfaces());
    assertEquals(8, facts.get("p6-b200.48xlarge").efaInterfaces());
    assertEquals("H100", facts.get("p5.48xlarge").gpu());
    // P6-B300: 17 cards, card 0 ENA only (aws/aws-parallelcluster#7143): 16 EFA interfaces.
    assertEquals(16, facts.get("p6-b300.48xlarge").efaInterfaces());
    assertEquals(false, facts.get("p6-b300.48xlarge").efaCard0());
    assertEquals(TABLE.awsInstances().size(), facts.size());
    for (AwsInstanceType t : TABLE.awsInstances()) {
      int cards = t.networkCards() - (t.efaOnCard0() ? 0 : 1);
      assertEquals(t.efa() ? cards : 0, facts.get(t.name()).efaInterfaces(), t.name());
      assertEquals(t.efaOnCard0(), facts.get(t.name()).efaCard0(), t.name());
    }
  }

  @Test
  void floorsComeFromTheCompatibilityTable() {
    TerraformView.Compat c = compat();
    Map<String, TerraformView.VersionFloor> gpu = new TreeMap<>();
    c.gpuMinDrivers().forEach(r -> gpu.put(r.key(), r.value()));
    assertEquals("525.85.12", gpu.get("H100").version());
    assertEquals("550.90.07", gpu.get("H200").version());
    for (Map.Entry<String, TerraformView.VersionFloor> e : gpu.entrySet()) {
      Optional<Version> min = TABLE.gpu(e.getKey()).flatMap(GpuModel::minDriver);
      assertEquals(min.orElseThrow().toString(), e.getValue().version());
      assertEquals(TerraformView.versionKey(min.get()), e.getValue().key());
    }

    Map<String, TerraformView.VersionFloor> cuda = new TreeMap<>();
    c.cudaMinDrivers().forEach(r -> cuda.put(r.key(), r.value()));
    assertEquals("570.26", cuda.get("12.8").version(), "12.8 means the GA release, not 12.8u1");
    assertEquals("580.65.06", cuda.get("13.0").version());
    assertTrue(!cuda.containsKey("12.7"), "there is no CUDA 12.7");
    for (CudaRelease r : TABLE.cudaReleases()) {
      if (r.version().parts().size() == 2) {
        assertEquals(r.minDriver().toString(), cuda.get(r.version().toString()).version());
      }
    }

    Map<String, String> mvc = new TreeMap<>();
    c.cudaMvcFloors().forEach(r -> mvc.put(r.key(), r.value().version()));
    assertEquals(Map.of("11", "450.80.02", "12", "525.60.13", "13", "580.65.06"), mvc);
  }

  private static String text(GeneratedOutputFormat.Markup m) {
    try {
      return GeneratedOutputFormat.INSTANCE.getMarkupString(m);
    } catch (freemarker.template.TemplateModelException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void rowsArePaddedSoTheirEqualsSignsAlign() throws Exception {
    List<TerraformView.Row<TerraformView.InstanceFacts>> rows = compat().instanceTypes();
    int width = -1;
    for (TerraformView.Row<TerraformView.InstanceFacts> r : rows) {
      int w = Escape.hcl(r.key()).length() + text(r.pad()).length();
      if (width >= 0) {
        assertEquals(width, w, r.key());
      }
      width = w;
      assertTrue(text(r.pad()).isBlank());
    }
  }
}

package dev.gpugen.compat;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The minor-version-compatibility floor of one CUDA major: any toolkit of that major runs, with a
 * limited feature set, on a driver at or above {@code minDriver}.
 *
 * @param cudaMajor the CUDA major release family, e.g. 12
 * @param minDriver the floor; below it the toolkit cannot run at all
 * @param mvcBelowBranch the branch number from which minor-version compatibility no longer applies
 *     (newer drivers run the toolkit through backward compatibility instead), e.g. 580 for CUDA 12;
 *     empty where it has no upper end
 * @param sources the URLs the values come from
 */
public record MinorVersionCompat(
    int cudaMajor, Version minDriver, OptionalInt mvcBelowBranch, List<String> sources)
    implements CompatRow {
  public MinorVersionCompat {
    Objects.requireNonNull(minDriver, "minDriver");
    Objects.requireNonNull(mvcBelowBranch, "mvcBelowBranch");
    sources = List.copyOf(sources);
  }

  @Override
  public String key() {
    return Integer.toString(cudaMajor);
  }
}

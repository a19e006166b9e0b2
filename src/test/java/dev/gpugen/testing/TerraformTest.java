package dev.gpugen.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a test class or method that runs {@code terraform} (init, test, fmt, validate). Tags
 * {@value #TAG} and {@value RealToolsTest#TAG}; {@link RealTools#start} refuses to start terraform
 * for a test without it.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@RealToolsTest
@Tag(TerraformTest.TAG)
public @interface TerraformTest {
  /** The JUnit tag. */
  String TAG = "terraform";
}

// The Kotlin client of the Fincore API. No dependencies beyond the Kotlin standard library and the
// JDK (java.net.http, javax.crypto); JSON is a small built-in codec. The repository's own tests
// compile it with kotlinc directly (bin/sdks/languages/kotlin.ts) because Gradle cannot fetch its
// plugins offline; `gradle build` works wherever the Gradle plugin portal is reachable.
plugins {
    kotlin("jvm") version "1.9.24"
    `java-library`
    `maven-publish`
}

group = "dev.fincore"
version = "2026.7.1"

repositories {
    mavenCentral()
}

kotlin {
    jvmToolchain(17)
}

// The tests are a plain main function (no JUnit): `gradle unitTests` runs them.
tasks.register<JavaExec>("unitTests") {
    classpath = sourceSets["test"].runtimeClasspath
    mainClass.set("dev.fincore.kotlin.UnitTestsKt")
}

tasks.named("check") {
    dependsOn("unitTests")
}

publishing {
    publications {
        create<MavenPublication>("maven") {
            from(components["java"])
            artifactId = "fincore-kotlin"
        }
    }
}

rootProject.name = "fincore-kotlin"

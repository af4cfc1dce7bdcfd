/** What generated members and channels are made of: names, titles, time zones, colors, channels, dates. */

export const FIRST_NAMES = [
  "Ada", "Alan", "Amara", "Aiko", "Björn", "Bea", "Carlos", "Chen", "Chloé", "Dara", "Dmitri", "Elena", "Emeka",
  "Esther", "Farah", "Felix", "Grace", "Gustavo", "Hana", "Hugo", "Ines", "Ivan", "Jamal", "Jana", "Jonas",
  "José", "Kai", "Keiko", "Lars", "Leila", "Liam", "Lucía", "Maya", "Mateo", "Mei", "Nadia", "Niamh", "Noah",
  "Oskar", "Olu", "Priya", "Paolo", "Quinn", "Rafael", "Rania", "Rosa", "Sami", "Sofia", "Søren", "Tariq",
  "Tomás", "Uma", "Valentina", "Victor", "Wei", "Xavier", "Yara", "Yusuf", "Zanele", "Zoë",
] as const;

export const LAST_NAMES = [
  "Abadi", "Andersen", "Baker", "Banerjee", "Castillo", "Costa", "Dubois", "Dlamini", "Eriksson", "Fischer",
  "Fernández", "García", "Gonzaga", "Hansen", "Hoang", "Ibrahim", "Ivanova", "Jansen", "Jiménez", "Kowalski",
  "Kim", "Larsen", "López", "Martin", "Mensah", "Müller", "Nakamura", "Novak", "Nguyen", "O'Brien", "Okafor",
  "Pereira", "Petrov", "Quispe", "Rossi", "Rahman", "Schmidt", "Silva", "Sato", "Tanaka", "Taylor", "Usman",
  "Varga", "Vasquez", "Wagner", "Wong", "Xu", "Yamamoto", "Yilmaz", "Zhang",
] as const;

export const TITLES = [
  "Software Engineer", "Senior Software Engineer", "Staff Engineer", "Engineering Manager", "Product Manager",
  "Product Designer", "Data Scientist", "Support Specialist", "Account Executive", "Marketing Lead",
  "Site Reliability Engineer", "Technical Writer", "Recruiter", "Finance Analyst", "QA Engineer", "CTO",
] as const;

/** Time zones with the standard-time label and offset the platform reports (DST is not modelled). */
export const TIME_ZONES = [
  ["America/Los_Angeles", "Pacific Standard Time", -28800],
  ["America/Denver", "Mountain Standard Time", -25200],
  ["America/Chicago", "Central Standard Time", -21600],
  ["America/New_York", "Eastern Standard Time", -18000],
  ["America/Sao_Paulo", "Brasilia Standard Time", -10800],
  ["Europe/London", "Greenwich Mean Time", 0],
  ["Europe/Berlin", "Central European Time", 3600],
  ["Europe/Helsinki", "Eastern European Time", 7200],
  ["Africa/Lagos", "West Africa Standard Time", 3600],
  ["Asia/Kolkata", "India Standard Time", 19800],
  ["Asia/Singapore", "Singapore Standard Time", 28800],
  ["Asia/Tokyo", "Japan Standard Time", 32400],
  ["Australia/Sydney", "Australian Eastern Standard Time", 36000],
] as const;

export const COLORS = [
  "9f69e7", "4bbe2e", "e7392d", "3c989f", "674b1b", "e96699", "e0a729", "684b6c", "5b89d5", "53b759",
  "2b6836", "99d04a", "dd8527", "bb86b7", "df3dc0", "4ec0d6", "e23f99", "d55aef", "9b3b45", "235e5b",
] as const;

export const CHANNELS: ReadonlyArray<readonly [name: string, purpose: string, archived?: true]> = [
  ["general", "This is the one channel that will always include everyone."],
  ["random", "A place for non-work banter, links, articles of interest, humor or anything else."],
  ["announcements", "Company-wide news."],
  ["engineering", "Everything engineering."],
  ["design", "Critiques, inspiration and the design system."],
  ["product", "Roadmaps, specs and launches."],
  ["support", "Customer questions and escalations."],
  ["sales", "Deals, demos and wins."],
  ["marketing", "Campaigns and content."],
  ["incidents", "Live incidents: one thread per incident."],
  ["deploys", "Deploy notifications."],
  ["releases", "Release notes as they ship."],
  ["help-desk", "Laptops, accounts and access requests."],
  ["watercooler", "Say hi."],
  ["music", "What are you listening to?"],
  ["books", "Reading recommendations."],
  ["pets", "Photos required."],
  ["travel", "Trips, tips and itineraries."],
  ["fitness", "Steps, runs and rides."],
  ["food", "Lunch plans and recipes."],
  ["gaming", "Game nights."],
  ["hiring", "Open roles and referrals."],
  ["onboarding", "Welcome, new folks!"],
  ["security", "Security questions and advisories."],
  ["infra", "Clusters, networks and costs."],
  ["data", "Pipelines and warehouses."],
  ["analytics", "Dashboards and metrics."],
  ["frontend", "Web clients."],
  ["backend", "Services and APIs."],
  ["mobile", "iOS and Android."],
  ["qa", "Test plans and bug bashes."],
  ["docs", "Documentation."],
  ["finance", "Budgets and expenses."],
  ["legal", "Contracts and policies."],
  ["people", "HR questions."],
  ["events", "Meetups and conferences."],
  ["kudos", "Thank someone."],
  ["feedback", "Product feedback from everyone."],
  ["old-website", "The website before the redesign.", true],
  ["project-phoenix", "Phoenix (shipped 2022).", true],
  ["offsite-2019", "Planning the 2019 offsite.", true],
  ["legacy-support", "Replaced by #support.", true],
];

export const EPOCH_2019 = 1546300800;
export const SPAN_2019_2025 = 6 * 365 * 86400;
